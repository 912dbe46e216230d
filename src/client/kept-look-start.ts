import { drawKeptLook } from './lib/kept-look';

/**
 * The page's script for a start without a network, built apart from the app (vite.config.ts) and
 * run as the page is read, once the app's stylesheet is in: it draws the screen's kept look
 * (lib/kept-look.ts) before the app's code is evaluated.
 */
drawKeptLook(__BUILD_ID__);
