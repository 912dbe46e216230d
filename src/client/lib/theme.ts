export type Theme = 'light' | 'dark' | 'system';

const THEME_KEY = 'theme';

export function storedTheme(): Theme {
  const value = localStorage.getItem(THEME_KEY);
  return value === 'light' || value === 'dark' ? value : 'system';
}

/** Dark mode by the `.dark` class on <html>: chosen, or following the device. */
export function applyStoredTheme(theme: Theme = storedTheme()): void {
  const dark = theme === 'dark' || (theme === 'system' && window.matchMedia('(prefers-color-scheme: dark)').matches);
  document.documentElement.classList.toggle('dark', dark);
}

export function chooseTheme(theme: Theme): void {
  if (theme === 'system') localStorage.removeItem(THEME_KEY);
  else localStorage.setItem(THEME_KEY, theme);
  applyStoredTheme(theme);
}
