/**
 * Why the camera could not be used, and what the person can do instead. They travel with the
 * capture view (its lazy file), which loads while the browser asks for the camera.
 */
import type { CameraErrorCode } from '../camera/camera-error.js';

export const cameraErrorTexts: Record<'pt-BR' | 'en' | 'es', Record<CameraErrorCode, string>> = {
  'pt-BR': {
    denied:
      'O acesso à câmera foi negado. Permita a câmera nas configurações do navegador e tente novamente, ou escolha uma foto dos arquivos.',
    'no-camera': 'Nenhuma câmera foi encontrada neste aparelho. Escolha uma foto dos arquivos.',
    'in-use': 'A câmera está sendo usada por outro aplicativo. Feche-o e tente novamente, ou escolha uma foto dos arquivos.',
    constraints: 'A câmera não oferece a resolução necessária. Escolha uma foto dos arquivos.',
    'insecure-context': 'A câmera só funciona em páginas seguras (https). Escolha uma foto dos arquivos.',
    unsupported: 'Este navegador não permite usar a câmera. Escolha uma foto dos arquivos.',
    aborted: 'A câmera foi interrompida. Tente novamente ou escolha uma foto dos arquivos.',
    unknown: 'Não foi possível abrir a câmera. Tente novamente ou escolha uma foto dos arquivos.',
  },
  en: {
    denied: 'Camera access was denied. Allow the camera in your browser settings and try again, or choose a photo from your files.',
    'no-camera': 'No camera was found on this device. Choose a photo from your files.',
    'in-use': 'The camera is being used by another app. Close it and try again, or choose a photo from your files.',
    constraints: 'The camera does not offer the resolution needed. Choose a photo from your files.',
    'insecure-context': 'The camera only works on secure (https) pages. Choose a photo from your files.',
    unsupported: 'This browser does not allow camera use. Choose a photo from your files.',
    aborted: 'The camera was interrupted. Try again or choose a photo from your files.',
    unknown: 'The camera could not be opened. Try again or choose a photo from your files.',
  },
  es: {
    denied:
      'Se denegó el acceso a la cámara. Permita la cámara en la configuración del navegador e inténtelo de nuevo, o elija una foto de sus archivos.',
    'no-camera': 'No se encontró ninguna cámara en este dispositivo. Elija una foto de sus archivos.',
    'in-use': 'Otra aplicación está usando la cámara. Ciérrela e inténtelo de nuevo, o elija una foto de sus archivos.',
    constraints: 'La cámara no ofrece la resolución necesaria. Elija una foto de sus archivos.',
    'insecure-context': 'La cámara solo funciona en páginas seguras (https). Elija una foto de sus archivos.',
    unsupported: 'Este navegador no permite usar la cámara. Elija una foto de sus archivos.',
    aborted: 'La cámara se interrumpió. Inténtelo de nuevo o elija una foto de sus archivos.',
    unknown: 'No se pudo abrir la cámara. Inténtelo de nuevo o elija una foto de sus archivos.',
  },
};
