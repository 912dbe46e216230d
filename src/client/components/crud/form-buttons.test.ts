import { describe, expect, it } from 'vitest';
import { formButtons } from './form-buttons';

describe("a form's default buttons", () => {
  it('are Back, Save and Return here when creating, Back and Update when editing', () => {
    expect(formButtons(false)).toEqual(['back', 'save', 'return-here']);
    expect(formButtons(true)).toEqual(['back', 'save']);
  });

  it('can be hidden by the screen', () => {
    expect(formButtons(false, ['return-here'])).toEqual(['back', 'save']);
    expect(formButtons(false, ['back', 'save'])).toEqual(['return-here']);
    expect(formButtons(true, ['return-here'])).toEqual(['back', 'save']);
  });
});
