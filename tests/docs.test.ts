import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every `npm run` command docs/deploy.md tells a shop to run exists and is run by some test: a
 * command in the docs that nothing exercises fails here rather than on a shop's machine.
 */

const scripts: Record<string, string> = JSON.parse(readFileSync('package.json', 'utf8')).scripts;

function testFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return /\.test\.tsx?$/.test(entry.name) && path !== join('tests', 'docs.test.ts') ? [path] : [];
  });
}

describe('docs/deploy.md', () => {
  const docs = readFileSync('docs/deploy.md', 'utf8');
  const commands = [...new Set([...docs.matchAll(/npm run ([\w:-]+)/g)].map((match) => match[1]))];
  const tests = [...testFiles('src'), ...testFiles('tests')].map((path) => readFileSync(path, 'utf8'));

  it('names npm scripts', () => {
    expect(commands).toContain('check:stock');
  });

  it('names only scripts package.json has', () => {
    expect(commands.filter((name) => !(name in scripts))).toEqual([]);
  });

  it('names only scripts some test runs (by their file, or as npm run)', () => {
    const unexercised = commands.filter((name) => {
      const file = scripts[name]?.match(/\b(?:scripts|bench|src)\/[\w./-]+\.ts\b/)?.[0];
      return !tests.some((text) => text.includes(`npm run ${name}`) || (file !== undefined && text.includes(file)));
    });
    expect(unexercised).toEqual([]);
  });
});
