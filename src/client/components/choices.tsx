import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from './ui/select';

/** One of a fixed list of choices: the value sent, and the words shown. */
export interface Choice {
  value: string;
  label: string;
}

/** What "Any" stands for among a select's items (an item's value cannot be empty). */
const ANY = 'any';

/**
 * A select of fixed choices as wide as its column. With `any`, an "Any" item comes first and
 * stands for no choice: the value `''` shows it, and choosing it gives `''`.
 */
export function ChoiceSelect({
  id,
  value,
  onValueChange,
  choices,
  any = false,
}: {
  id: string;
  value: string;
  onValueChange: (value: string) => void;
  choices: readonly Choice[];
  any?: boolean;
}) {
  return (
    <Select value={any && value === '' ? ANY : value} onValueChange={(next) => onValueChange(any && next === ANY ? '' : next)}>
      <SelectTrigger id={id} className="w-full">
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        {any && <SelectItem value={ANY}>Any</SelectItem>}
        {choices.map((choice) => (
          <SelectItem key={choice.value} value={choice.value}>
            {choice.label}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
