/**
 * The same flow from a small Vue app. Importing the element module defines `<onboarding-flow>`;
 * Vue treats it as a custom element (vite.config.ts: `isCustomElement`) and listens to its
 * `onboarding-*` DOM events directly.
 */
import '@onboarding-kit/element';
import { createApp } from 'vue';
import App from './App.vue';

createApp(App).mount('#app');
