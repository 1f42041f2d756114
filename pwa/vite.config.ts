import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
  },
  server: {
    // `vite --config pwa/vite.config.ts` for UI work against a running `npm start`.
    proxy: { '/api': 'http://127.0.0.1:8787' },
  },
});
