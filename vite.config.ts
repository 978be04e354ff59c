// Demo page dev server and static build. Library builds live in each package.
import { defineConfig } from 'vite';

export default defineConfig({
  root: 'demo',
  resolve: { conditions: ['source'] },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
});
