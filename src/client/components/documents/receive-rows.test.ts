import { describe, expect, it } from 'vitest';
import { restProblems } from './receive-rows';

describe('a short receive checked before it is queued offline', () => {
  it('says nothing of a receive that sends no answer (nothing short)', () => {
    expect(restProblems({ lines: [] })).toEqual({});
  });

  it('asks for the answer, and for the reason of a rest closed as lost', () => {
    expect(restProblems({ rest: null })).toEqual({ rest: ['Say what happened to the rest: keep it in transit, or close it as lost.'] });
    expect(restProblems({ rest: 'keep' })).toEqual({});
    expect(restProblems({ rest: 'close', lost_reason: null, lost_note: null })).toEqual({
      lost_reason: ['Say why the rest did not arrive.'],
    });
    expect(restProblems({ rest: 'close', lost_reason: 'other', lost_note: null })).toEqual({
      lost_note: ['Say in a note what happened to the rest.'],
    });
    expect(restProblems({ rest: 'close', lost_reason: 'damaged', lost_note: null })).toEqual({});
  });
});
