/**
 * What a person reads when sending failed, by the companion's error code (controllers/
 * upload-errors.ts picks one). Only a page that has sent something needs them: they come with the
 * photo steps, so the first load carries none of them.
 */
import type { OnboardingLocale } from './index.js';

const ptBR = {
  network: 'Sem conexão com o servidor. Verifique sua internet e tente novamente.',
  timeout: 'O envio demorou demais. Verifique sua conexão e tente novamente.',
  invalid_cpf: 'O servidor recusou o CPF. Corrija-o e envie novamente.',
  invalid_field: 'Um dos dados foi recusado pelo servidor. Confira o CPF e o nome e envie novamente.',
  invalid_image: 'Uma das fotos não foi aceita pelo servidor. Refaça a foto indicada.',
  missing_image: 'Falta uma foto obrigatória. Refaça a foto indicada.',
  image_too_large: 'Uma das fotos é grande demais. Refaça a foto indicada.',
  payload_too_large: 'As fotos são grandes demais para envio. Refaça-as.',
  rate_limited: 'Muitas tentativas em pouco tempo. Aguarde um minuto e tente novamente.',
  busy: 'Muitas pessoas estão enviando agora. Aguarde alguns segundos e envie de novo: nada foi perdido.',
  upstream: 'O serviço de verificação está com problemas no momento. Tente novamente em alguns instantes.',
  generic: 'Algo deu errado no envio. Tente novamente.',
  session_used: 'Esta verificação já foi enviada, por esta ou por outra página. Não é possível enviá-la de novo com este link.',
  session_mismatch:
    'Os dados não correspondem aos informados pelo serviço que pediu esta verificação. Confira o tipo de documento e envie novamente.',
  idempotency_conflict: 'Um envio anterior, com outros dados, já foi registrado. Comece de novo para enviar outra vez.',
  idempotency_in_progress: 'O envio anterior ainda está sendo processado. Aguarde alguns segundos e tente novamente.',
};

export type UploadErrorTexts = typeof ptBR;

export const uploadErrorTexts: Record<OnboardingLocale, UploadErrorTexts> = {
  'pt-BR': ptBR,
  en: {
    network: 'Could not reach the server. Check your internet connection and try again.',
    timeout: 'The upload took too long. Check your connection and try again.',
    invalid_cpf: 'The server rejected the CPF. Correct it and send again.',
    invalid_field: 'The server rejected some of the data. Check the CPF and name and send again.',
    invalid_image: 'The server did not accept one of the photos. Retake the photo shown.',
    missing_image: 'A required photo is missing. Retake the photo shown.',
    image_too_large: 'One of the photos is too large. Retake the photo shown.',
    payload_too_large: 'The photos are too large to send. Retake them.',
    rate_limited: 'Too many attempts in a short time. Wait a minute and try again.',
    busy: 'Many people are sending right now. Wait a few seconds and send again: nothing was lost.',
    upstream: 'The verification service is having trouble right now. Try again in a few moments.',
    generic: 'Something went wrong while sending. Try again.',
    session_used: 'This verification has already been sent, from this page or another. It cannot be sent again with this link.',
    session_mismatch:
      'The data does not match what the service that asked for this verification provided. Check the document type and send again.',
    idempotency_conflict: 'An earlier upload with other data was already recorded. Start again to send once more.',
    idempotency_in_progress: 'The earlier upload is still being processed. Wait a few seconds and try again.',
  },
  es: {
    network: 'No hay conexión con el servidor. Revise su conexión a internet e inténtelo de nuevo.',
    timeout: 'El envío tardó demasiado. Revise su conexión e inténtelo de nuevo.',
    invalid_cpf: 'El servidor rechazó el CPF. Corríjalo y envíe de nuevo.',
    invalid_field: 'El servidor rechazó alguno de los datos. Revise el CPF y el nombre y envíe de nuevo.',
    invalid_image: 'El servidor no aceptó una de las fotos. Rehaga la foto indicada.',
    missing_image: 'Falta una foto obligatoria. Rehaga la foto indicada.',
    image_too_large: 'Una de las fotos es demasiado grande. Rehaga la foto indicada.',
    payload_too_large: 'Las fotos son demasiado grandes para enviarlas. Rehágalas.',
    rate_limited: 'Demasiados intentos en poco tiempo. Espere un minuto e inténtelo de nuevo.',
    busy: 'Muchas personas están enviando ahora. Espere unos segundos y vuelva a enviar: no se perdió nada.',
    upstream: 'El servicio de verificación tiene problemas en este momento. Inténtelo de nuevo en unos instantes.',
    generic: 'Algo salió mal en el envío. Inténtelo de nuevo.',
    session_used: 'Esta verificación ya se envió, desde esta página o desde otra. No se puede enviar de nuevo con este enlace.',
    session_mismatch:
      'Los datos no coinciden con los que informó el servicio que pidió esta verificación. Revise el tipo de documento y envíe de nuevo.',
    idempotency_conflict: 'Ya se registró un envío anterior con otros datos. Empiece de nuevo para enviar otra vez.',
    idempotency_in_progress: 'El envío anterior todavía se está procesando. Espere unos segundos e inténtelo de nuevo.',
  },
};
