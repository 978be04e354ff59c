/**
 * The hosted pages' own words (the flow's are the element's), in the three locales the element
 * speaks. A page with a session speaks the session's locale; one without (an unknown link, the
 * hand-off pages before a claim) the first of the browser's `Accept-Language` that is one of them.
 */
import { resolveLocale, type SessionLocale } from '@onboarding-kit/contract';

export type PageLocale = SessionLocale;

export interface PageText {
  /** The page's title after the brand's name. */
  title: string;
  redirecting: string;
  goNow: string;
  cancelled: string;
  notFoundHeading: string;
  notFoundBody: string;
  expiredHeading: string;
  expiredBody: string;
  usedHeading: string;
  usedBody: string;
  cancelledHeading: string;
  cancelledBody: string;
  /** The capture link opened a second time (its token is traded for a secret once). */
  openedHeading: string;
  openedBody: string;
  /** The capture page while it trades its link for a secret, and when that fails. */
  opening: string;
  openFailed: string;
  backToService: string;
  unavailableHeading: string;
  unavailableBody: string;
  /** The hand-off link page. */
  claiming: string;
  claimWait: string;
  linkUsedHeading: string;
  linkUsedBody: string;
  linkExpiredHeading: string;
  linkExpiredBody: string;
  linkInvalidHeading: string;
  linkInvalidBody: string;
  claimFailed: string;
  tryAgain: string;
  typeCodeInstead: string;
  /** The short-code page. */
  codeHeading: string;
  codeIntro: string;
  codeLabel: string;
  codeHint: string;
  codeSubmit: string;
  codeChecking: string;
  codeTooShort: string;
  codeWrong: string;
  codeUsed: string;
  codeExpired: string;
  /** `{s}` is replaced by the seconds to wait. */
  codeRateLimited: string;
  /** The device page reached without a claim. */
  noDeviceSessionHeading: string;
  noDeviceSessionBody: string;
  /** The device page after the outcome. */
  deviceDone: string;
}

const PT: PageText = {
  title: 'Verificação de identidade',
  redirecting: 'Redirecionando…',
  goNow: 'Continuar agora',
  cancelled: 'Verificação cancelada.',
  notFoundHeading: 'Link não encontrado',
  notFoundBody: 'Este link de verificação não existe. Confira o endereço ou peça um novo link a quem o enviou.',
  expiredHeading: 'Este link expirou',
  expiredBody: 'O prazo para fazer a verificação com este link acabou. Peça um novo link a quem o enviou.',
  usedHeading: 'Este link já foi usado',
  usedBody: 'A verificação deste link já foi enviada. Não é preciso fazer de novo.',
  cancelledHeading: 'Este link foi cancelado',
  cancelledBody: 'Este link de verificação não vale mais. Peça um novo link a quem o enviou.',
  openedHeading: 'Este link já foi aberto',
  openedBody:
    'Por segurança, cada link de verificação abre uma só vez. Continue na aba em que você o abriu, ou peça um novo link a quem o enviou.',
  opening: 'Abrindo a verificação…',
  openFailed: 'Não foi possível abrir a verificação. Verifique a internet e tente de novo.',
  backToService: 'Voltar',
  unavailableHeading: 'Página indisponível',
  unavailableBody: 'A página de verificação não está disponível agora. Tente de novo em alguns minutos.',
  claiming: 'Conectando este celular…',
  claimWait: 'Só um instante: estamos trazendo a verificação do computador para este aparelho.',
  linkUsedHeading: 'Este link já foi usado',
  linkUsedBody: 'Cada link funciona uma vez. Para continuar neste celular, gere um novo no computador.',
  linkExpiredHeading: 'Este link expirou',
  linkExpiredBody: 'O link vale por 10 minutos: gere um novo no computador.',
  linkInvalidHeading: 'Link inválido',
  linkInvalidBody: 'Este link não vale mais (talvez um mais novo tenha sido gerado). Gere um novo no computador.',
  claimFailed: 'Não foi possível conectar. Verifique a internet e tente de novo.',
  tryAgain: 'Tentar de novo',
  typeCodeInstead: 'Digitar o código',
  codeHeading: 'Continuar no celular',
  codeIntro: 'Digite o código de 8 caracteres que aparece na tela do computador.',
  codeLabel: 'Código',
  codeHint: 'Letras e números, como K7MQ-4TXA. Maiúsculas ou minúsculas, tanto faz.',
  codeSubmit: 'Continuar',
  codeChecking: 'Conferindo o código…',
  codeTooShort: 'O código tem 8 caracteres. Confira e digite de novo.',
  codeWrong: 'Código incorreto. Confira na tela do computador e digite de novo.',
  codeUsed: 'Este código já foi usado. Gere um novo no computador.',
  codeExpired: 'Este código expirou: gere um novo no computador.',
  codeRateLimited: 'Muitas tentativas. Espere {s} segundos e tente de novo.',
  noDeviceSessionHeading: 'Nenhuma verificação neste aparelho',
  noDeviceSessionBody: 'Para continuar aqui, leia o QR code mostrado no computador ou digite o código dele.',
  deviceDone: 'Pronto. Você pode voltar ao computador.',
};

const EN: PageText = {
  title: 'Identity verification',
  redirecting: 'Redirecting…',
  goNow: 'Continue now',
  cancelled: 'Verification cancelled.',
  notFoundHeading: 'Link not found',
  notFoundBody: 'This verification link does not exist. Check the address, or ask whoever sent it for a new one.',
  expiredHeading: 'This link has expired',
  expiredBody: 'The time to verify with this link is over. Ask whoever sent it for a new one.',
  usedHeading: 'This link has already been used',
  usedBody: 'The verification of this link has already been sent. There is no need to do it again.',
  cancelledHeading: 'This link was cancelled',
  cancelledBody: 'This verification link is no longer valid. Ask whoever sent it for a new one.',
  openedHeading: 'This link has already been opened',
  openedBody:
    'For your safety, each verification link opens only once. Continue in the tab where you opened it, or ask whoever sent it for a new link.',
  opening: 'Opening the verification…',
  openFailed: 'Could not open the verification. Check your connection and try again.',
  backToService: 'Go back',
  unavailableHeading: 'Page unavailable',
  unavailableBody: 'The verification page is not available right now. Try again in a few minutes.',
  claiming: 'Connecting this phone…',
  claimWait: 'One moment: we are bringing the verification over from the computer.',
  linkUsedHeading: 'This link has already been used',
  linkUsedBody: 'Each link works once. To continue on this phone, create a new one on the computer.',
  linkExpiredHeading: 'This link has expired',
  linkExpiredBody: 'A link lasts 10 minutes: create a new one on the computer.',
  linkInvalidHeading: 'Invalid link',
  linkInvalidBody: 'This link is no longer valid (a newer one may have been created). Create a new one on the computer.',
  claimFailed: 'Could not connect. Check your internet connection and try again.',
  tryAgain: 'Try again',
  typeCodeInstead: 'Type the code',
  codeHeading: 'Continue on your phone',
  codeIntro: 'Type the 8-character code shown on the computer screen.',
  codeLabel: 'Code',
  codeHint: 'Letters and digits, like K7MQ-4TXA. Upper or lower case, either works.',
  codeSubmit: 'Continue',
  codeChecking: 'Checking the code…',
  codeTooShort: 'The code has 8 characters. Check it and type it again.',
  codeWrong: 'Wrong code. Check it on the computer screen and type it again.',
  codeUsed: 'This code has already been used. Create a new one on the computer.',
  codeExpired: 'This code has expired: create a new one on the computer.',
  codeRateLimited: 'Too many attempts. Wait {s} seconds and try again.',
  noDeviceSessionHeading: 'No verification on this device',
  noDeviceSessionBody: 'To continue here, scan the QR code shown on the computer or type its code.',
  deviceDone: 'Done. You can go back to the computer.',
};

const ES: PageText = {
  title: 'Verificación de identidad',
  redirecting: 'Redirigiendo…',
  goNow: 'Continuar ahora',
  cancelled: 'Verificación cancelada.',
  notFoundHeading: 'Enlace no encontrado',
  notFoundBody: 'Este enlace de verificación no existe. Revise la dirección o pida un enlace nuevo a quien se lo envió.',
  expiredHeading: 'Este enlace expiró',
  expiredBody: 'El plazo para verificar con este enlace terminó. Pida un enlace nuevo a quien se lo envió.',
  usedHeading: 'Este enlace ya fue usado',
  usedBody: 'La verificación de este enlace ya fue enviada. No hace falta hacerla de nuevo.',
  cancelledHeading: 'Este enlace fue cancelado',
  cancelledBody: 'Este enlace de verificación ya no vale. Pida un enlace nuevo a quien se lo envió.',
  openedHeading: 'Este enlace ya fue abierto',
  openedBody:
    'Por seguridad, cada enlace de verificación se abre una sola vez. Continúe en la pestaña donde lo abrió, o pida un nuevo enlace a quien se lo envió.',
  opening: 'Abriendo la verificación…',
  openFailed: 'No fue posible abrir la verificación. Verifique su conexión e intente de nuevo.',
  backToService: 'Volver',
  unavailableHeading: 'Página no disponible',
  unavailableBody: 'La página de verificación no está disponible ahora. Inténtelo de nuevo en unos minutos.',
  claiming: 'Conectando este teléfono…',
  claimWait: 'Un momento: estamos trayendo la verificación desde la computadora.',
  linkUsedHeading: 'Este enlace ya fue usado',
  linkUsedBody: 'Cada enlace funciona una vez. Para continuar en este teléfono, genere uno nuevo en la computadora.',
  linkExpiredHeading: 'Este enlace expiró',
  linkExpiredBody: 'El enlace vale 10 minutos: genere uno nuevo en la computadora.',
  linkInvalidHeading: 'Enlace no válido',
  linkInvalidBody: 'Este enlace ya no vale (quizá se generó uno más nuevo). Genere uno nuevo en la computadora.',
  claimFailed: 'No se pudo conectar. Revise su conexión e inténtelo de nuevo.',
  tryAgain: 'Intentar de nuevo',
  typeCodeInstead: 'Escribir el código',
  codeHeading: 'Continuar en el teléfono',
  codeIntro: 'Escriba el código de 8 caracteres que aparece en la pantalla de la computadora.',
  codeLabel: 'Código',
  codeHint: 'Letras y números, como K7MQ-4TXA. Mayúsculas o minúsculas, da igual.',
  codeSubmit: 'Continuar',
  codeChecking: 'Revisando el código…',
  codeTooShort: 'El código tiene 8 caracteres. Revíselo y escríbalo de nuevo.',
  codeWrong: 'Código incorrecto. Revíselo en la pantalla de la computadora y escríbalo de nuevo.',
  codeUsed: 'Este código ya fue usado. Genere uno nuevo en la computadora.',
  codeExpired: 'Este código expiró: genere uno nuevo en la computadora.',
  codeRateLimited: 'Demasiados intentos. Espere {s} segundos e inténtelo de nuevo.',
  noDeviceSessionHeading: 'Ninguna verificación en este dispositivo',
  noDeviceSessionBody: 'Para continuar aquí, escanee el código QR de la computadora o escriba el código que aparece junto a él.',
  deviceDone: 'Listo. Puede volver a la computadora.',
};

export const PAGE_TEXT: Record<PageLocale, PageText> = { 'pt-BR': PT, en: EN, es: ES };

/** A session's locale as one of the pages' (by language; `pt-BR` for anything else). */
export const pageLocale = resolveLocale;

/** The browser's preferred locale of the three (`Accept-Language`, by weight, then order); `pt-BR` when none fits. */
export function localeFromAcceptLanguage(header: string | undefined): PageLocale {
  if (!header) return 'pt-BR';
  const ranked = header
    .slice(0, 512)
    .split(',')
    .map((part, i) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const weight = q ? Number(q.slice(2)) : 1;
      return { lang: tag.trim().toLowerCase().split('-')[0], weight: Number.isFinite(weight) ? weight : 0, i };
    })
    .filter((r) => r.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.i - b.i);
  const known = ranked.find(({ lang }) => lang === 'pt' || lang === 'en' || lang === 'es');
  return resolveLocale(known?.lang);
}
