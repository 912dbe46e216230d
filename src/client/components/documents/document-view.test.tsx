// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PlaceGrant } from '../../../domain/places';
import type { Lifecycle } from '../../../domain/lifecycle';
import type { ResourceDefinition } from '../../../domain/resource';
import { getResource, registry } from '../../../domain/resources/registry';
import { jobPermissions } from '../../../domain/role-needs';
import type { Actor } from '../../../domain/where-made';
import { ApiError } from '../../lib/api';
import type { ApiRecord } from '../../lib/resource-queries';

// Who is signed in: set by each test.
const signedIn = vi.hoisted(() => ({ actor: undefined as unknown as Actor }));
vi.mock('../../lib/actor', () => ({ useActor: () => signedIn.actor }));
vi.mock('../../lib/session', () => ({ useActiveBusinessId: () => 1, useCan: () => true }));
const outbox = vi.hoisted(() => ({ submitChange: vi.fn(async (_change: unknown) => ({ sent: true, data: {} })) }));
vi.mock('../../lib/outbox', () => ({ isClientKey: (id: unknown) => typeof id === 'string', submitChange: outbox.submitChange }));
vi.mock('../../lib/notify', () => ({ toast: { success: vi.fn(), info: vi.fn(), error: vi.fn() } }));
// A follow-on's link, by its words and where it leads.
vi.mock('@tanstack/react-router', () => ({
  Link: ({ children, to, params }: { children: ReactNode; to: string; params: Record<string, string> }) => (
    <a href={to.replace('$resource', params.resource).replace('$from', params.from)}>{children}</a>
  ),
}));

const { DocumentActions } = await import('./document-view');

const MAKATI = { type: 'branch', id: 1 } as const;
const VALENZUELA = { type: 'warehouse', id: 1 } as const;
const at = (place: { type: 'branch' | 'warehouse'; id: number }, level: PlaceGrant['level']): PlaceGrant => ({ ...place, level });

/** The demo's roles (server/seed.ts `DEMO_ROLES`): who makes what, and where. */
const warehouseStaff: Actor = {
  permissions: jobPermissions(['stock-requests', 'stock-transfers', 'stock-receives', 'stock-returns']),
  places: { all: null, grants: [at(VALENZUELA, 'operate'), at(MAKATI, 'view')] },
};
const branchStaff: Actor = {
  permissions: jobPermissions(['stock-requests', 'stock-receives']),
  places: { all: null, grants: [at(MAKATI, 'operate')] },
};

/** Goods from the warehouse to Makati. */
const toMakati = {
  from_location_type: 'warehouse',
  from_location_id: VALENZUELA.id,
  to_location_type: 'branch',
  to_location_id: MAKATI.id,
  deleted_at: null,
  version: 3,
};
const transfer = (status: string): ApiRecord => ({ id: 61, number: 'ST-20261201-W00001-00000061', status, ...toMakati });
const request: ApiRecord = { id: 12, number: 'SR-20261201-B00001-00000012', status: 'pending', ...toMakati };

function show(resource: string, record: ApiRecord, actor: Actor) {
  signedIn.actor = actor;
  render(<DocumentActions definition={getResource(resource)} record={record} />);
}

const labels = () => [...screen.queryAllByRole('link'), ...screen.queryAllByRole('button')].map((element) => element.textContent?.trim());

beforeEach(() => outbox.submitChange.mockClear());
afterEach(cleanup);

describe('a document’s actions follow the user’s role and places', () => {
  it('offers a transfer’s receive only where it arrives: to the branch’s staff, never to the warehouse that sent it', () => {
    show('stock-transfers', transfer('in_transit'), branchStaff);
    expect(labels()).toEqual(['Receive transfer']);
    expect(screen.getByRole('link', { name: 'Receive transfer' }).getAttribute('href')).toBe('/stock-receives/create/61');
    cleanup();
    show('stock-transfers', transfer('in_transit'), warehouseStaff);
    expect(labels()).toEqual([]);
  });

  it('offers a request’s transfer where the goods leave: to the warehouse, not to the branch that asked', () => {
    show('stock-requests', request, warehouseStaff);
    expect(labels()).toContain('Transfer');
    cleanup();
    show('stock-requests', request, branchStaff);
    expect(labels()).not.toContain('Transfer');
    cleanup();
    // Even with the permission to transfer, at the branch only.
    show('stock-requests', request, { ...branchStaff, permissions: warehouseStaff.permissions });
    expect(labels()).not.toContain('Transfer');
  });

  it('closes a partly received transfer’s rest as lost by its receivers, asking why, through the outbox', async () => {
    show('stock-transfers', transfer('partially_received'), warehouseStaff);
    expect(labels()).not.toContain('Close the rest as lost');
    cleanup();

    show('stock-transfers', transfer('partially_received'), branchStaff);
    expect(labels()).toEqual(['Receive transfer', 'Close the rest as lost']);
    fireEvent.click(screen.getByRole('button', { name: 'Close the rest as lost' }));
    const dialog = await screen.findByRole('dialog', { name: 'Close the rest as lost' });
    expect(dialog.textContent).toContain('Stock Transfer ST-20261201-W00001-00000061: What has not arrived leaves transit as lost');

    // "Other" says nothing by itself: asked for a note before anything is sent.
    fireEvent.change(within(dialog).getByLabelText(/Why it did not arrive/), { target: { value: 'other' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Close the rest as lost' })));
    expect(within(dialog).getByText('Say in a note what happened to the rest.')).toBeTruthy();
    expect(outbox.submitChange).not.toHaveBeenCalled();

    fireEvent.change(within(dialog).getByLabelText('Note'), { target: { value: ' Fell off the jeepney ' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Close the rest as lost' })));
    expect(outbox.submitChange).toHaveBeenCalledWith({
      businessId: 1,
      resource: 'stock-transfers',
      action: 'close',
      recordId: 61,
      method: 'PATCH',
      path: '/api/stock-transfers/61/close',
      body: { reason: 'other', note: 'Fell off the jeepney' },
      label: 'Close the rest as lost: Stock Transfer ST-20261201-W00001-00000061',
    });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows the server’s refusal of the close under its field', async () => {
    outbox.submitChange.mockRejectedValueOnce(
      new ApiError(422, 'The given data was invalid.', { reason: ['The selected reason is invalid.'] }),
    );
    show('stock-transfers', transfer('partially_received'), branchStaff);
    fireEvent.click(screen.getByRole('button', { name: 'Close the rest as lost' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText(/Why it did not arrive/), { target: { value: 'damaged' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Close the rest as lost' })));
    expect(within(dialog).getByText('The selected reason is invalid.')).toBeTruthy();
    expect(
      within(dialog)
        .getByLabelText(/Why it did not arrive/)
        .getAttribute('aria-invalid'),
    ).toBe('true');
  });
});

describe('a document’s transitions, by what they do', () => {
  /** A clerk at the warehouse who counts and may post what a count finds. */
  const clerk: Actor = {
    permissions: jobPermissions(['stock-counts', 'stock-adjustments']),
    places: { all: null, grants: [at(VALENZUELA, 'operate')] },
  };
  const count: ApiRecord = {
    id: 7,
    number: 'SC-20261129-W00001-00000007',
    status: 'open',
    blind: false,
    warehouse_id: VALENZUELA.id,
    deleted_at: null,
    version: 1,
  };

  it('leaves a count’s finish and post to its sheet, and offers its cancel as an undoing', () => {
    show('stock-counts', count, clerk);
    expect(labels()).toEqual(['Cancel Stock Count']);
    expect(screen.getByRole('button', { name: 'Cancel Stock Count' }).className).not.toContain('bg-primary');
  });

  it('offers a step forward as a primary action, asking without alarm and saying what it does', async () => {
    // A quotation sent on to the customer: a step no kind declares today, as a kind would declare it.
    const quotations = getResource('quotations');
    const lifecycle: Lifecycle = {
      ...quotations.document!.lifecycle,
      transitions: [
        {
          name: 'post',
          direction: 'forward',
          from: ['open'],
          to: 'invoiced',
          permission: 'update',
          does: 'The customer is told it holds.',
        },
        ...quotations.document!.lifecycle.transitions,
      ],
    };
    const sending: ResourceDefinition = { ...quotations, document: { ...quotations.document!, lifecycle } };
    signedIn.actor = { permissions: jobPermissions(['quotations']), places: { all: 'operate', grants: [] } };
    render(
      <DocumentActions
        definition={sending}
        record={{ id: 5, number: 'Q-5', status: 'open', branch_id: MAKATI.id, deleted_at: null, version: 1 }}
      />,
    );
    const step = screen.getByRole('button', { name: 'Post Quotation' });
    expect(step.className).toContain('bg-primary');
    expect(screen.getByRole('button', { name: 'Cancel Quotation' }).className).not.toContain('bg-primary');
    fireEvent.click(step);
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain('The customer is told it holds.');
    const confirm = within(dialog).getByRole('button', { name: 'Post Quotation' });
    expect(confirm.className).not.toContain('bg-destructive');
    await act(async () => fireEvent.click(confirm));
    expect(outbox.submitChange).toHaveBeenCalledWith(
      expect.objectContaining({ action: 'post', method: 'PATCH', path: '/api/quotations/5/post', label: 'Post Quotation Q-5' }),
    );
  });

  it('queues every transition it offers under a name the outbox has words for', async () => {
    const { PENDING_WORDS } = await import('../../lib/pending');
    const offered = registry.flatMap((definition) =>
      (definition.document?.lifecycle.transitions ?? []).filter((transition) => !transition.onSheet).map((transition) => transition.name),
    );
    for (const name of offered) expect(PENDING_WORDS, name).toHaveProperty(name);
  });
});
