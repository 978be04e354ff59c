// Lets tsc type-check main.ts; the SFC itself is compiled (and its TS checked by Vite's transform) at build time.
declare module '*.vue' {
  import type { DefineComponent } from 'vue';
  const component: DefineComponent<object, object, unknown>;
  export default component;
}
