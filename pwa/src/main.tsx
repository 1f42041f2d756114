import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

const app = (
  <StrictMode>
    <App />
  </StrictMode>
);

// index.html carries the prerendered landing page; shell.html (every other path) has an empty #root.
if (root.hasChildNodes()) hydrateRoot(root, app);
else createRoot(root).render(app);
