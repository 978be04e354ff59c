import type { LivenessPrompt } from '@onboarding-kit/contract';

/**
 * The capture view's own texts, loaded with it: the first load carries none of them. The
 * guidance hints are one short line each, read on a live preview at arm's length.
 */

/** What the preview can ask of the person: the frame checks' hints and the selfie's face hints. */
export type ViewHint =
  | 'too-dark'
  | 'glare'
  | 'blurry'
  | 'move-closer'
  | 'no-document'
  | 'hold-still'
  | 'no-face'
  | 'several-faces'
  | 'face-too-small'
  | 'face-off-center';

export interface CaptureViewTexts {
  back: string;
  close: string;
  switchCamera: string;
  shutter: string;
  /** The instruction on the preview, by what is photographed. */
  instruction: { document: string; selfie: string };
  hints: Record<ViewHint, string>;
  /** Shown while the frame passes and the automatic photo is coming. */
  holdStill: string;
  /** The liveness challenge's prompts, shown and announced one at a time (the person's own left and right). */
  prompts: Record<LivenessPrompt, string>;
  /** Announced when the view opens: what to do, and that the photo may be taken by itself. */
  opened: (auto: boolean) => string;
}

const ptBR: CaptureViewTexts = {
  back: 'Voltar',
  close: 'Fechar câmera',
  switchCamera: 'Trocar de câmera',
  shutter: 'Tirar foto',
  instruction: {
    document: 'Enquadre o documento inteiro na moldura',
    selfie: 'Centralize o rosto no oval',
  },
  hints: {
    'too-dark': 'Está escuro: procure mais luz',
    glare: 'Evite reflexos',
    blurry: 'Imagem sem foco: segure firme',
    'move-closer': 'Aproxime o documento',
    'no-document': 'Coloque o documento na moldura',
    'hold-still': 'Segure firme',
    'no-face': 'Mostre o rosto no oval',
    'several-faces': 'Só uma pessoa na foto',
    'face-too-small': 'Aproxime o rosto',
    'face-off-center': 'Centralize o rosto no oval',
  },
  holdStill: 'Segure firme…',
  prompts: {
    'turn-left': 'Vire o rosto devagar para a sua esquerda',
    'turn-right': 'Vire o rosto devagar para a sua direita',
    'come-closer': 'Aproxime o rosto da câmera',
  },
  opened: (auto) =>
    auto
      ? 'Câmera aberta. A foto é tirada sozinha quando estiver boa; o botão Tirar foto também funciona.'
      : 'Câmera aberta. Enquadre e use o botão Tirar foto.',
};

const en: CaptureViewTexts = {
  back: 'Back',
  close: 'Close camera',
  switchCamera: 'Switch camera',
  shutter: 'Take photo',
  instruction: {
    document: 'Fit the whole document in the frame',
    selfie: 'Centre your face in the oval',
  },
  hints: {
    'too-dark': 'Too dark: find more light',
    glare: 'Avoid reflections',
    blurry: 'Out of focus: hold steady',
    'move-closer': 'Move the document closer',
    'no-document': 'Place the document in the frame',
    'hold-still': 'Hold steady',
    'no-face': 'Show your face in the oval',
    'several-faces': 'Only one person, please',
    'face-too-small': 'Move closer',
    'face-off-center': 'Centre your face in the oval',
  },
  holdStill: 'Hold steady…',
  prompts: {
    'turn-left': 'Slowly turn your head to your left',
    'turn-right': 'Slowly turn your head to your right',
    'come-closer': 'Bring your face closer to the camera',
  },
  opened: (auto) =>
    auto
      ? 'Camera open. The photo is taken by itself when it is good; the Take photo button works too.'
      : 'Camera open. Frame it and use the Take photo button.',
};

const es: CaptureViewTexts = {
  back: 'Volver',
  close: 'Cerrar cámara',
  switchCamera: 'Cambiar de cámara',
  shutter: 'Tomar foto',
  instruction: {
    document: 'Encuadre el documento entero en el marco',
    selfie: 'Centre el rostro en el óvalo',
  },
  hints: {
    'too-dark': 'Está oscuro: busque más luz',
    glare: 'Evite los reflejos',
    blurry: 'Imagen desenfocada: sujételo firme',
    'move-closer': 'Acerque el documento',
    'no-document': 'Coloque el documento en el marco',
    'hold-still': 'Sujételo firme',
    'no-face': 'Muestre el rostro en el óvalo',
    'several-faces': 'Solo una persona, por favor',
    'face-too-small': 'Acérquese',
    'face-off-center': 'Centre el rostro en el óvalo',
  },
  holdStill: 'Sujételo firme…',
  prompts: {
    'turn-left': 'Gire la cabeza despacio hacia su izquierda',
    'turn-right': 'Gire la cabeza despacio hacia su derecha',
    'come-closer': 'Acerque el rostro a la cámara',
  },
  opened: (auto) =>
    auto
      ? 'Cámara abierta. La foto se toma sola cuando está bien; el botón Tomar foto también funciona.'
      : 'Cámara abierta. Encuadre y use el botón Tomar foto.',
};

export const captureViewTexts = { 'pt-BR': ptBR, en, es } as const;
