import { useParams } from '@tanstack/react-router';
import type { ComponentType } from 'react';
import type { ResourceDefinition } from '../../../domain/resource';
import { findResource } from '../../../domain/resources/registry';
import { NotFoundScreen } from '../layout/not-found-screen';
import { renderSlot } from './slots';

/**
 * A screen of the record the path names (`/x/{id}`, `/x/{id}/edit`): the resource's own `slot`
 * when one fills it, else `screen`. Keyed by the record, so another record's starts afresh.
 */
export function RecordScreen({
  slot,
  screen: Screen,
}: {
  slot: 'view' | 'edit';
  screen: ComponentType<{ definition: ResourceDefinition; id: string }>;
}) {
  const { resource, id } = useParams({ strict: false }) as { resource: string; id: string };
  const definition = findResource(resource);
  if (!definition) return <NotFoundScreen what="record" />;
  const key = `${definition.name}-${id}`;
  return renderSlot(definition, slot, { key, id }) ?? <Screen key={key} definition={definition} id={id} />;
}
