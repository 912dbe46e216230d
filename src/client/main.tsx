// First: what the first screen waits for is asked for before the rest is evaluated.
import './first-screen';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { keepFirstLook } from './components/layout/first-look';
import { registerServiceWorker } from './lib/service-worker';
import { applyStoredTheme } from './lib/theme';
import './styles.css';

applyStoredTheme();

const root = document.getElementById('root') as HTMLElement;
keepFirstLook(root);
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

void registerServiceWorker();
