/**
 * The full consent text behind "Ler detalhes" (why it is asked, who processes the data, how long
 * it is kept, the person's rights): loaded lazily (from beside the script in the script-tag forms) as soon as the
 * element connects, so that the first load stays small. What is collected and why stay in the
 * catalogs, as the consent step shows them at once.
 *
 * `controller` is the data controller's name (the `controller-name` attribute, or the hosted
 * page's brand), null when none was configured: the texts then say so instead of naming anyone.
 * The companion never stores a photo (it hands them to the upstream) and deletes what it keeps of
 * a verification with its retention (24 h after the outcome by default); how long the provider
 * and the controller keep the images is the controller's policy, which the texts point to.
 */
import { unnamedController } from '../onboarding-flow/data-controller.js';
import type { OnboardingLocale } from './index.js';

type Controller = string | null | undefined;

/** A name closing a sentence: "Acme S.A." takes no second period. */
const ended = (name: string): string => (name.endsWith('.') ? name : `${name}.`);

export const consentText = {
  'pt-BR': {
    controller: (c: Controller): string =>
      c
        ? `Quem coleta: ${c}, controladora dos seus dados.`
        : unnamedController('Quem coleta: o responsável por este site, que não informou o nome dele a esta verificação.'),
    privacy: 'Política de privacidade (abre em outra aba)',
    biometricShort:
      'A selfie é um dado biométrico (dado pessoal sensível, LGPD art. 11): serve só para confirmar que você é o titular do documento.',
    intro: 'Para confirmar a sua identidade, precisamos de alguns dados. Leia como eles são tratados.',
    whatTitle: 'O que coletamos',
    whyTitle: 'Para quê',
    biometric:
      'A selfie é um dado biométrico, um dado pessoal sensível (LGPD, art. 11). Ela é comparada com a foto do documento somente para confirmar que você é o titular dele e prevenir fraudes, com o seu consentimento específico, dado ao marcar a caixa abaixo.',
    whoTitle: 'Quem trata os dados',
    who: (c: Controller): string =>
      c
        ? `${c} é a controladora: decide como os seus dados são tratados. O provedor de verificação de identidade contratado por ${c} é o operador: processa as imagens por conta de ${ended(c)}`
        : 'O responsável por este site é o controlador, mas não informou o nome dele a esta verificação. O provedor de verificação de identidade contratado por ele é o operador: processa as imagens por conta dele. Antes de concordar, procure neste site quem ele é e a sua política de privacidade.',
    keepTitle: 'Por quanto tempo',
    keep: (c: Controller): string =>
      `As imagens ficam apenas na memória deste navegador até o envio e são descartadas dele depois. O serviço que recebe o envio não guarda as imagens: repassa-as ao provedor de verificação e apaga os dados da verificação pouco depois do resultado (em 24 horas, salvo outra configuração). O provedor e ${c ?? 'o responsável por este site'} guardam as imagens e o resultado pelo prazo da política de privacidade ${c ? `de ${c}` : 'dele'}, exigido pela verificação e por obrigações legais, e depois os eliminam.`,
    rightsTitle: 'Seus direitos',
    rights: (c: Controller): string =>
      `Você pode pedir confirmação, acesso, correção, anonimização, portabilidade ou eliminação dos seus dados, informações sobre o compartilhamento e revogar este consentimento a qualquer momento, falando com ${ended(c ?? 'o responsável por este site')}`,
  },
  en: {
    controller: (c: Controller): string =>
      c
        ? `Who collects it: ${c}, the controller of your data.`
        : unnamedController('Who collects it: whoever runs this site, which has not given its name to this verification.'),
    privacy: 'Privacy policy (opens in a new tab)',
    biometricShort:
      'The selfie is biometric data (sensitive personal data, LGPD art. 11): it is used only to confirm that you are the document’s holder.',
    intro: 'To confirm your identity we need some of your data. Please read how it is handled.',
    whatTitle: 'What we collect',
    whyTitle: 'Why',
    biometric:
      'The selfie is biometric data, sensitive personal data under the LGPD (art. 11). It is compared with the document’s photo only to confirm that you are its holder and to prevent fraud, with your specific consent, given by ticking the box below.',
    whoTitle: 'Who processes it',
    who: (c: Controller): string =>
      c
        ? `${c} is the controller: it decides how your data is processed. The identity verification provider ${c} has engaged is the processor: it handles the images on behalf of ${ended(c)}`
        : 'Whoever runs this site is the controller, but it has not given its name to this verification. The identity verification provider it has engaged is the processor: it handles the images on its behalf. Before you agree, look on this site for who runs it and for its privacy policy.',
    keepTitle: 'How long it is kept',
    keep: (c: Controller): string =>
      `The images stay only in this browser’s memory until they are sent and are discarded from it afterwards. The service that receives them does not store the images: it passes them to the verification provider and deletes the verification’s data shortly after its outcome (within 24 hours unless configured otherwise). The provider and ${c ?? 'whoever runs this site'} keep the images and the outcome for as long as ${c ? `the privacy policy of ${c}` : 'its privacy policy'} says, as the verification and legal obligations require, then delete them.`,
    rightsTitle: 'Your rights',
    rights: (c: Controller): string =>
      `You may ask for confirmation, access, correction, anonymisation, portability or deletion of your data and for information on who it is shared with, and you may withdraw this consent at any time, by contacting ${ended(c ?? 'whoever runs this site')}`,
  },
  es: {
    controller: (c: Controller): string =>
      c
        ? `Quién los recopila: ${c}, responsable de sus datos.`
        : unnamedController('Quién los recopila: el responsable de este sitio, que no informó su nombre a esta verificación.'),
    privacy: 'Política de privacidad (se abre en otra pestaña)',
    biometricShort:
      'La selfi es un dato biométrico (dato personal sensible, LGPD art. 11): sirve solo para confirmar que usted es el titular del documento.',
    intro: 'Para confirmar su identidad necesitamos algunos datos. Lea cómo se tratan.',
    whatTitle: 'Qué recopilamos',
    whyTitle: 'Para qué',
    biometric:
      'La selfi es un dato biométrico, un dato personal sensible según la LGPD (art. 11). Se compara con la foto del documento solo para confirmar que usted es su titular y prevenir fraudes, con su consentimiento específico, dado al marcar la casilla de abajo.',
    whoTitle: 'Quién trata los datos',
    who: (c: Controller): string =>
      c
        ? `${c} es el responsable del tratamiento: decide cómo se tratan sus datos. El proveedor de verificación de identidad contratado por ${c} es el encargado: procesa las imágenes por cuenta de ${ended(c)}`
        : 'El responsable del tratamiento es quien gestiona este sitio, pero no informó su nombre a esta verificación. El proveedor de verificación de identidad que contrató es el encargado: procesa las imágenes por su cuenta. Antes de aceptar, busque en este sitio quién lo gestiona y su política de privacidad.',
    keepTitle: 'Durante cuánto tiempo',
    keep: (c: Controller): string =>
      `Las imágenes permanecen solo en la memoria de este navegador hasta el envío y se descartan de él después. El servicio que las recibe no guarda las imágenes: las pasa al proveedor de verificación y borra los datos de la verificación poco después del resultado (en 24 horas, salvo otra configuración). El proveedor y ${c ?? 'quien gestiona este sitio'} conservan las imágenes y el resultado durante el plazo de ${c ? `la política de privacidad de ${c}` : 'su política de privacidad'}, que exigen la verificación y las obligaciones legales, y luego los eliminan.`,
    rightsTitle: 'Sus derechos',
    rights: (c: Controller): string =>
      `Puede solicitar la confirmación, el acceso, la corrección, la anonimización, la portabilidad o la eliminación de sus datos e información sobre con quién se comparten, y revocar este consentimiento en cualquier momento, contactando a ${ended(c ?? 'quien gestiona este sitio')}`,
  },
} satisfies Record<OnboardingLocale, Record<string, string | ((controller: Controller) => string)>>;
