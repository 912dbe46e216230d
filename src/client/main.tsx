// First: what the first screen waits for is asked for before the rest is evaluated.
import './first-screen';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { registerServiceWorker } from './lib/service-worker';
import { applyStoredTheme } from './lib/theme';
import './styles.css';

applyStoredTheme();

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

void registerServiceWorker();
