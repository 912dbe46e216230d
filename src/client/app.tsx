import { useEffect, useState } from 'react';

type Health = 'checking' | 'ok' | 'unavailable';

/**
 * The shell served until the screens land: it says what this is and whether the API answers,
 * and points at the API documentation.
 */
export function App() {
  const [health, setHealth] = useState<Health>('checking');
  useEffect(() => {
    fetch('/api/health')
      .then((response) => setHealth(response.ok ? 'ok' : 'unavailable'))
      .catch(() => setHealth('unavailable'));
  }, []);
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', maxWidth: 640, margin: '4rem auto', padding: '0 1rem', lineHeight: 1.5 }}>
      <h1>Bodega</h1>
      <p>Back office for inventory, purchasing, sales and logistics.</p>
      <p>
        API: <strong>{health === 'checking' ? 'checking…' : health === 'ok' ? 'running' : 'not answering'}</strong> ·{' '}
        <a href="/api/docs">API documentation</a>
      </p>
    </main>
  );
}
