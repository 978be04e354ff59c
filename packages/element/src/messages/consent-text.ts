/**
 * The full consent text behind "Ler detalhes" (why it is asked, who processes the data, how long
 * it is kept, the person's rights): loaded lazily (from beside the script in the script-tag forms) as soon as the
 * element connects, so that the first load stays small. What is collected and why stay in the
 * catalogs, as the consent step shows them at once.
 */
import type { OnboardingLocale } from './index.js';

export const consentText = {
  'pt-BR': {
    intro: 'Para confirmar a sua identidade, precisamos de alguns dados. Leia como eles são tratados.',
    whatTitle: 'O que coletamos',
    whyTitle: 'Para quê',
    whoTitle: 'Quem trata os dados',
    who: 'A empresa deste site (controladora) e o seu provedor de verificação de identidade (operador), que processa as imagens em seu nome.',
    keepTitle: 'Por quanto tempo',
    keep: 'As imagens ficam apenas na memória deste navegador até o envio e são descartadas depois dele. Os dados enviados são guardados pelo tempo exigido pela verificação e por obrigações legais, e depois eliminados.',
    rightsTitle: 'Seus direitos',
    rights:
      'Você pode pedir confirmação, acesso, correção, anonimização, portabilidade ou eliminação dos seus dados, informações sobre o compartilhamento e revogar este consentimento a qualquer momento, falando com a empresa deste site.',
  },
  en: {
    intro: 'To confirm your identity we need some of your data. Please read how it is handled.',
    whatTitle: 'What we collect',
    whyTitle: 'Why',
    whoTitle: 'Who processes it',
    who: 'The company running this site (the controller) and its identity verification provider (the processor), which handles the images on its behalf.',
    keepTitle: 'How long it is kept',
    keep: 'The images stay only in this browser’s memory until they are sent and are discarded afterwards. The data sent is kept for as long as the verification and legal obligations require, then deleted.',
    rightsTitle: 'Your rights',
    rights:
      'You may ask for confirmation, access, correction, anonymisation, portability or deletion of your data and for information on who it is shared with, and you may withdraw this consent at any time, by contacting the company running this site.',
  },
  es: {
    intro: 'Para confirmar su identidad necesitamos algunos datos. Lea cómo se tratan.',
    whatTitle: 'Qué recopilamos',
    whyTitle: 'Para qué',
    whoTitle: 'Quién trata los datos',
    who: 'La empresa de este sitio (responsable del tratamiento) y su proveedor de verificación de identidad (encargado), que procesa las imágenes en su nombre.',
    keepTitle: 'Durante cuánto tiempo',
    keep: 'Las imágenes permanecen solo en la memoria de este navegador hasta el envío y se descartan después. Los datos enviados se conservan el tiempo que exijan la verificación y las obligaciones legales, y luego se eliminan.',
    rightsTitle: 'Sus derechos',
    rights:
      'Puede solicitar la confirmación, el acceso, la corrección, la anonimización, la portabilidad o la eliminación de sus datos e información sobre con quién se comparten, y revocar este consentimiento en cualquier momento, contactando a la empresa de este sitio.',
  },
} satisfies Record<OnboardingLocale, Record<string, string>>;
