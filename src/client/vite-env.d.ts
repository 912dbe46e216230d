/// <reference types="vite/client" />

/** The time the web app was built; busts caches kept across builds. */
declare const __BUILD_ID__: string;
