/**
 * Why a photo was refused, in words the person can act on. Only a processed photo can be
 * refused, so these texts travel with the image pipeline (its lazy file), not in the first load.
 */
import type { ImageCheckCode } from '../image/image-error.js';
import type { OnboardingLocale } from './index.js';

export const imageErrors: Record<OnboardingLocale, Record<ImageCheckCode, string>> = {
  'pt-BR': {
    'not-an-image': 'O arquivo escolhido não é uma imagem. Escolha uma foto (JPEG, PNG ou WebP) ou tire uma com a câmera.',
    'unsupported-type': 'Este formato de imagem não é aceito. Use JPEG, PNG ou WebP.',
    'file-too-large': 'O arquivo é grande demais. Escolha uma foto menor ou tire uma com a câmera.',
    'too-small': 'A foto tem resolução baixa demais para ser lida. Aproxime-se e tire outra.',
    blurry: 'A foto está tremida ou fora de foco. Segure firme e tire outra.',
    'too-dark': 'A foto está escura demais. Procure um lugar mais iluminado e tire outra.',
    'too-bright': 'A foto está clara demais ou com reflexo. Evite luz direta e tire outra.',
    'compression-failed': 'Não foi possível preparar a foto. Tente outra foto.',
    'no-face': 'Não encontramos um rosto. Centralize o rosto no oval, com boa luz, e tire outra.',
    'several-faces': 'Há mais de um rosto na foto. Fique só você no oval e tire outra.',
    'face-too-small': 'Aproxime o rosto: ele está longe demais. Chegue mais perto até o rosto preencher o oval e tire outra.',
    'face-off-center': 'O rosto está fora do oval. Centralize o rosto no oval e tire outra.',
    'no-document': 'Não encontramos o documento na moldura. Coloque o documento inteiro na moldura e tire outra.',
  },
  en: {
    'not-an-image': 'The chosen file is not an image. Choose a photo (JPEG, PNG or WebP) or take one with the camera.',
    'unsupported-type': 'This image format is not accepted. Use JPEG, PNG or WebP.',
    'file-too-large': 'The file is too large. Choose a smaller photo or take one with the camera.',
    'too-small': 'The photo’s resolution is too low to read. Move closer and take another.',
    blurry: 'The photo is shaky or out of focus. Hold steady and take another.',
    'too-dark': 'The photo is too dark. Find a brighter spot and take another.',
    'too-bright': 'The photo is too bright or has glare. Avoid direct light and take another.',
    'compression-failed': 'The photo could not be prepared. Try another photo.',
    'no-face': 'We could not find a face. Centre your face in the oval, in good light, and take another.',
    'several-faces': 'There is more than one face in the photo. Be alone in the oval and take another.',
    'face-too-small': 'Move closer: your face is too far away. Come closer until your face fills the oval and take another.',
    'face-off-center': 'Your face is outside the oval. Centre your face in the oval and take another.',
    'no-document': 'We could not find the document in the frame. Place the whole document in the frame and take another.',
  },
  es: {
    'not-an-image': 'El archivo elegido no es una imagen. Elija una foto (JPEG, PNG o WebP) o tome una con la cámara.',
    'unsupported-type': 'Este formato de imagen no se acepta. Use JPEG, PNG o WebP.',
    'file-too-large': 'El archivo es demasiado grande. Elija una foto más pequeña o tome una con la cámara.',
    'too-small': 'La foto tiene una resolución demasiado baja para leerla. Acérquese y tome otra.',
    blurry: 'La foto está movida o desenfocada. Sujete firme y tome otra.',
    'too-dark': 'La foto está demasiado oscura. Busque un lugar más iluminado y tome otra.',
    'too-bright': 'La foto está demasiado clara o tiene reflejos. Evite la luz directa y tome otra.',
    'compression-failed': 'No se pudo preparar la foto. Pruebe con otra.',
    'no-face': 'No encontramos una cara. Centre la cara en el óvalo, con buena luz, y tome otra.',
    'several-faces': 'Hay más de una cara en la foto. Quédese solo usted en el óvalo y tome otra.',
    'face-too-small': 'Acérquese: la cara está demasiado lejos. Acérquese hasta que la cara llene el óvalo y tome otra.',
    'face-off-center': 'La cara está fuera del óvalo. Centre la cara en el óvalo y tome otra.',
    'no-document': 'No encontramos el documento en el marco. Coloque el documento entero en el marco y tome otra.',
  },
};

/**
 * What else to try when a selfie was refused twice for its face (none, or several), which can
 * never be kept: shown and announced in place of "use it anyway". It travels with the pipeline
 * too, since only a checked selfie can be refused.
 */
export const faceTips: Record<OnboardingLocale, string> = {
  'pt-BR':
    'Para enviar, a selfie precisa mostrar o seu rosto, e só ele. Dicas: tire óculos escuros, boné ou máscara; fique de frente para a luz, não de costas para uma janela; segure o aparelho na altura dos olhos. Se a câmera não ajudar, escolha uma selfie dos arquivos.',
  en: 'To be sent, the selfie must show your face, and only yours. Tips: take off sunglasses, cap or mask; face the light rather than a window behind you; hold the device at eye level. If the camera does not help, choose a selfie from your files.',
  es: 'Para enviarla, la selfie debe mostrar su cara, y solo la suya. Consejos: quítese gafas de sol, gorra o mascarilla; póngase de frente a la luz, no de espaldas a una ventana; sostenga el dispositivo a la altura de los ojos. Si la cámara no ayuda, elija una selfie de sus archivos.',
};

/**
 * The selfie's own lines, which travel with the pipeline too: its acceptance (a face to check,
 * not print to read), and its face refusals when it came from a file, where there is no oval to
 * centre in and nobody to move closer: another picture is the way forward.
 */
export const selfieTexts: Record<OnboardingLocale, { accepted: string; fromFile: Partial<Record<ImageCheckCode, string>> }> = {
  'pt-BR': {
    accepted: 'Selfie aceita. Confira se o seu rosto aparece inteiro e bem iluminado.',
    fromFile: {
      'no-face': 'Não encontramos um rosto nesta foto. Escolha uma selfie de frente, com boa luz.',
      'several-faces': 'Há mais de um rosto nesta foto. Escolha uma selfie em que apareça só você.',
      'face-too-small': 'O rosto está pequeno demais nesta foto. Escolha uma selfie em que o rosto ocupe boa parte da imagem.',
      'face-off-center': 'O rosto não está no meio desta foto. Escolha uma selfie com o rosto no centro da imagem.',
    },
  },
  en: {
    accepted: 'Selfie accepted. Make sure your whole face shows, in good light.',
    fromFile: {
      'no-face': 'We could not find a face in this photo. Choose a selfie taken from the front, in good light.',
      'several-faces': 'There is more than one face in this photo. Choose a selfie that shows only you.',
      'face-too-small': 'The face is too small in this photo. Choose a selfie where your face fills much of the picture.',
      'face-off-center': 'The face is not in the middle of this photo. Choose a selfie with your face in the centre.',
    },
  },
  es: {
    accepted: 'Selfie aceptada. Compruebe que su cara se vea entera y con buena luz.',
    fromFile: {
      'no-face': 'No encontramos una cara en esta foto. Elija una selfie de frente, con buena luz.',
      'several-faces': 'Hay más de una cara en esta foto. Elija una selfie en la que aparezca solo usted.',
      'face-too-small': 'La cara es demasiado pequeña en esta foto. Elija una selfie en la que la cara ocupe buena parte de la imagen.',
      'face-off-center': 'La cara no está en el centro de esta foto. Elija una selfie con la cara en el centro.',
    },
  },
};
