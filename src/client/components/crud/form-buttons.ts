/** The form's own buttons, any of which a screen may hide. */
export type FormButton = 'back' | 'save' | 'return-here';

/** The buttons a form shows: Back, Save (Update when editing) and, when creating, Return here; less those hidden. */
export function formButtons(editing: boolean, hidden: readonly FormButton[] = []): FormButton[] {
  const all: FormButton[] = editing ? ['back', 'save'] : ['back', 'save', 'return-here'];
  return all.filter((button) => !hidden.includes(button));
}
