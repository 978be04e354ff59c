/**
 * The texts of the waiting and outcome screens, which only a page that has sent something reads:
 * loaded lazily (from beside the script in the script-tag forms), so that the first load stays
 * small. Headings, status names and what events carry stay in the catalogs, which every step
 * can use at once.
 */
import type { OnboardingLocale } from './index.js';

const ptBR = {
  waiting: 'Recebemos seus dados. A análise costuma levar alguns segundos; mantenha esta página aberta.',
  slow: 'Está levando mais tempo que o normal. A análise continua; não é preciso enviar de novo.',
  review: 'Sua verificação pode estar em análise manual, que pode levar algumas horas.',
  reviewClose: 'Você pode fechar esta página: o serviço que pediu a verificação será avisado do resultado.',
  reviewStay: 'Deixe esta página aberta para ver o resultado aqui.',
  approvedBody: 'Tudo certo! Sua identidade foi confirmada.',
  refusedBody: 'Não foi possível aprovar a verificação com os dados enviados.',
  refusedReason: (reason: string): string => `Motivo: ${reason}`,
  refusedNext: 'Você pode tentar de novo com outras fotos: do documento original, nítidas e sem reflexos.',
  refusedContact: 'Para tentar de novo, fale com o serviço que pediu esta verificação.',
  retryPhotos: 'Tentar com outras fotos',
  errorBody: 'Houve um problema técnico na análise. Informe o código abaixo ao suporte para que possam ajudar.',
  copied: 'Código copiado.',
  copyFailed: 'Não foi possível copiar. Selecione o código e copie manualmente.',
  /** On the review, a photo kept although a check refused it, before the reason. */
  keptAnyway: 'Mantida mesmo assim',
  continue: 'Continuar',
  approvedClose: 'Você já pode fechar esta página.',
  helpLink: 'Central de ajuda',
  backToSite: 'Voltar ao site',
  refusedHelp: 'Na central de ajuda do serviço que pediu esta verificação você encontra o que fazer agora.',
  errorRetry: 'Você pode tentar de novo agora. Se o problema continuar, informe o código ao suporte.',
  errorHelp: 'Se precisar, procure a central de ajuda do serviço que pediu esta verificação e informe o código.',
  errorContact: 'Fale com o suporte do serviço que pediu esta verificação e informe o código acima.',
};

export type AfterSendMessages = typeof ptBR;

export const afterSend: Record<OnboardingLocale, AfterSendMessages> = {
  'pt-BR': ptBR,
  en: {
    waiting: 'We received your data. The check usually takes a few seconds; keep this page open.',
    slow: 'This is taking longer than usual. The check goes on; there is no need to send again.',
    review: 'Your verification may be under manual review, which can take a few hours.',
    reviewClose: 'You can close this page: the service that asked for this verification will be told the result.',
    reviewStay: 'Keep this page open to see the result here.',
    approvedBody: 'All done! Your identity has been confirmed.',
    refusedBody: 'The verification could not be approved with the data sent.',
    refusedReason: (reason: string): string => `Reason: ${reason}`,
    refusedNext: 'You can try again with other photos: of the original document, sharp and without glare.',
    refusedContact: 'To try again, contact the service that asked for this verification.',
    retryPhotos: 'Try with other photos',
    errorBody: 'A technical problem occurred during the check. Give support the code below so they can help.',
    copied: 'Code copied.',
    copyFailed: 'Could not copy. Select the code and copy it by hand.',
    keptAnyway: 'Kept anyway',
    continue: 'Continue',
    approvedClose: 'You can close this page now.',
    helpLink: 'Help centre',
    backToSite: 'Back to the site',
    refusedHelp: 'The help centre of the service that asked for this verification says what to do next.',
    errorRetry: 'You can try again now. If the problem goes on, give support the code.',
    errorHelp: 'If you need to, go to the help centre of the service that asked for this verification and give the code.',
    errorContact: 'Contact the support of the service that asked for this verification and give the code above.',
  },
  es: {
    waiting: 'Recibimos sus datos. El análisis suele tardar unos segundos; mantenga esta página abierta.',
    slow: 'Está tardando más de lo habitual. El análisis continúa; no hace falta enviar de nuevo.',
    review: 'Su verificación puede estar en revisión manual, que puede tardar algunas horas.',
    reviewClose: 'Puede cerrar esta página: el servicio que pidió la verificación recibirá el resultado.',
    reviewStay: 'Deje esta página abierta para ver el resultado aquí.',
    approvedBody: '¡Listo! Su identidad fue confirmada.',
    refusedBody: 'No fue posible aprobar la verificación con los datos enviados.',
    refusedReason: (reason: string): string => `Motivo: ${reason}`,
    refusedNext: 'Puede intentarlo de nuevo con otras fotos: del documento original, nítidas y sin reflejos.',
    refusedContact: 'Para intentarlo de nuevo, contacte con el servicio que pidió esta verificación.',
    retryPhotos: 'Intentar con otras fotos',
    errorBody: 'Hubo un problema técnico en el análisis. Comunique al soporte el código de abajo para que puedan ayudarle.',
    copied: 'Código copiado.',
    copyFailed: 'No se pudo copiar. Seleccione el código y cópielo manualmente.',
    keptAnyway: 'Conservada de todos modos',
    continue: 'Continuar',
    approvedClose: 'Ya puede cerrar esta página.',
    helpLink: 'Centro de ayuda',
    backToSite: 'Volver al sitio',
    refusedHelp: 'En el centro de ayuda del servicio que pidió esta verificación encontrará qué hacer ahora.',
    errorRetry: 'Puede intentarlo de nuevo ahora. Si el problema continúa, comunique el código al soporte.',
    errorHelp: 'Si lo necesita, acuda al centro de ayuda del servicio que pidió esta verificación y comunique el código.',
    errorContact: 'Contacte con el soporte del servicio que pidió esta verificación y comunique el código de arriba.',
  },
};
