/**
 * The three tips under the drawing of a capture step, before the camera opens. They come with the
 * photo steps (steps/capture-intro.ts), so the first load carries none of them. Short lines, read
 * at a glance before taking the photo.
 */
import type { OnboardingLocale } from './index.js';

export interface CaptureTips {
  document: readonly [string, string, string];
  selfie: readonly [string, string, string];
}

export const captureTips: Record<OnboardingLocale, CaptureTips> = {
  'pt-BR': {
    document: ['Tire o documento da capa plástica', 'Os quatro cantos dentro da moldura', 'Sem reflexos: não use o flash'],
    selfie: ['Luz boa à sua frente', 'Sem boné, chapéu ou óculos', 'Olhe direto para a câmera'],
  },
  en: {
    document: ['Take it out of its plastic cover', 'All four corners inside the frame', 'No glare: keep the flash off'],
    selfie: ['Good light in front of you', 'No cap, hat or glasses', 'Look straight at the camera'],
  },
  es: {
    document: ['Sácalo de la funda de plástico', 'Las cuatro esquinas dentro del marco', 'Sin reflejos: no uses el flash'],
    selfie: ['Buena luz delante de ti', 'Sin gorra, sombrero ni gafas', 'Mira directo a la cámara'],
  },
};
