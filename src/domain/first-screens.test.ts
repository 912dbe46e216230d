import { describe, expect, it } from 'vitest';
import { firstScreenModules } from './first-screens';

describe('the first screen of an address', () => {
  it('is the overview at the start, the counter at /counter, a list at a resource’s address, and none elsewhere', () => {
    expect(firstScreenModules('/')).toEqual(['src/client/features/overview/overview-screen.tsx']);
    expect(firstScreenModules('/overview')).toEqual(['src/client/features/overview/overview-screen.tsx']);
    expect(firstScreenModules('/counter')).toEqual(['src/client/features/counter/counter-screen.tsx']);
    expect(firstScreenModules('/items')).toEqual(['src/client/screen-parts.tsx', 'src/client/components/crud/list-screen.tsx']);
    expect(firstScreenModules('/items/4')).toEqual([]);
    expect(firstScreenModules('/login')).toEqual([]);
    expect(firstScreenModules('/pending-changes')).toEqual([]);
  });
});
