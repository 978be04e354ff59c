/**
 * The texts of the proof-of-address step (a session's `steps`), which come with the photo steps:
 * the first load carries only its heading and its stage's name.
 */
import type { OnboardingLocale } from './index.js';

export interface ProofTexts {
  intro: string;
  chooseFile: string;
  takePhoto: string;
  fileHint: (limit: string) => string;
  checking: string;
  accepted: string;
  pdf: (name: string, size: string) => string;
  use: string;
  replace: string;
  wrongFile: string;
  tooLarge: (limit: string) => string;
}

export const proofTexts: Record<OnboardingLocale, ProofTexts> = {
  'pt-BR': {
    intro: 'Envie uma conta recente (luz, água, gás, telefone ou internet) ou outro comprovante com o seu endereço, inteiro e legível.',
    chooseFile: 'Escolher um arquivo (foto ou PDF)',
    takePhoto: 'Tirar uma foto com a câmera',
    fileHint: (limit) => `JPEG, PNG, WebP ou PDF, até ${limit}.`,
    checking: 'Verificando o arquivo…',
    accepted: 'Comprovante recebido. Confira se o endereço está legível.',
    pdf: (name, size) => `PDF: ${name} (${size})`,
    use: 'Usar este comprovante',
    replace: 'Trocar o comprovante',
    wrongFile: 'Este arquivo não é uma foto nem um PDF. Escolha uma foto (JPEG, PNG ou WebP) ou um PDF do comprovante.',
    tooLarge: (limit) => `O arquivo é grande demais: o limite é ${limit}. Escolha um arquivo menor ou tire uma foto.`,
  },
  en: {
    intro: 'Send a recent bill (electricity, water, gas, phone or internet) or another proof showing your address, whole and legible.',
    chooseFile: 'Choose a file (photo or PDF)',
    takePhoto: 'Take a photo with the camera',
    fileHint: (limit) => `JPEG, PNG, WebP or PDF, up to ${limit}.`,
    checking: 'Checking the file…',
    accepted: 'Proof of address received. Check that the address is legible.',
    pdf: (name, size) => `PDF: ${name} (${size})`,
    use: 'Use this proof',
    replace: 'Replace the proof',
    wrongFile: 'This file is neither a photo nor a PDF. Choose a photo (JPEG, PNG or WebP) or a PDF of the proof.',
    tooLarge: (limit) => `The file is too large: the limit is ${limit}. Choose a smaller file or take a photo.`,
  },
  es: {
    intro: 'Envíe una factura reciente (luz, agua, gas, teléfono o internet) u otro comprobante con su domicilio, completo y legible.',
    chooseFile: 'Elegir un archivo (foto o PDF)',
    takePhoto: 'Tomar una foto con la cámara',
    fileHint: (limit) => `JPEG, PNG, WebP o PDF, hasta ${limit}.`,
    checking: 'Comprobando el archivo…',
    accepted: 'Comprobante recibido. Verifique que el domicilio se lea bien.',
    pdf: (name, size) => `PDF: ${name} (${size})`,
    use: 'Usar este comprobante',
    replace: 'Cambiar el comprobante',
    wrongFile: 'Este archivo no es una foto ni un PDF. Elija una foto (JPEG, PNG o WebP) o un PDF del comprobante.',
    tooLarge: (limit) => `El archivo es demasiado grande: el límite es ${limit}. Elija un archivo más pequeño o tome una foto.`,
  },
};

/** `bytes` as a person reads a file's size (`1,5 MB`, `320 KB`), in the locale's numbers. */
export function fileSize(bytes: number, locale: OnboardingLocale): string {
  const mb = bytes >= 1024 * 1024;
  const value = mb ? bytes / (1024 * 1024) : Math.max(1, Math.round(bytes / 1024));
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(value)} ${mb ? 'MB' : 'KB'}`;
}
