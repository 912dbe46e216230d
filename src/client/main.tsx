import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './styles.css';

/**
 * The entry: React, then the app (start.tsx), each evaluated in a task of its own — on a slow
 * phone, evaluating the two at once held the page for a quarter of a second. The build names
 * the app's files as module preloads in index.html (vite.config.ts), so they arrive with this one.
 */
void import('./start').then(({ App }) =>
  createRoot(document.getElementById('root') as HTMLElement).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
