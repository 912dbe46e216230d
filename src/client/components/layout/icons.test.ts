import * as lucide from 'lucide-react';
import { expect, it } from 'vitest';
import { ICONS } from './icons';

it('draws each key with the lucide icon of that name', () => {
  const pascal = (key: string) => key.replace(/(^|-)(\w)/g, (_, __, letter: string) => letter.toUpperCase());
  for (const [key, icon] of Object.entries(ICONS)) expect(icon, key).toBe(lucide[pascal(key) as keyof typeof lucide]);
});
