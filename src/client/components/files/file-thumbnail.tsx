import { FileText, Image as ImageIcon } from 'lucide-react';
import { useState } from 'react';
import type { AttachedFile } from '../../../domain/attachments';
import type { ResourceDefinition } from '../../../domain/resource';
import { cn } from '../../lib/utils';
import { useImageUrl } from './files-api';

const SIZES = {
  thumbnail: { image: 'size-14 object-cover', icon: 'size-14' },
  preview: { image: 'max-h-[70vh] max-w-full object-contain', icon: 'h-48 w-36' },
};

/**
 * An image file as itself (a thumbnail in a list, or the preview of the file screen), a PDF as
 * its icon; an image the browser cannot draw (HEIC outside Safari) as an image icon.
 */
export function FileThumbnail({
  definition,
  recordId,
  file,
  size,
}: {
  definition: ResourceDefinition;
  recordId: number | string;
  file: AttachedFile;
  size: keyof typeof SIZES;
}) {
  const url = useImageUrl(definition, recordId, file);
  const [undrawable, setUndrawable] = useState(false);
  if (url && !undrawable) {
    return (
      <img src={url} alt="" className={cn('shrink-0 rounded-md border bg-muted', SIZES[size].image)} onError={() => setUndrawable(true)} />
    );
  }
  const Icon = file.mime_type === 'application/pdf' ? FileText : ImageIcon;
  return (
    <span className={cn('flex shrink-0 items-center justify-center rounded-md border bg-muted text-muted-foreground', SIZES[size].icon)}>
      <Icon aria-hidden className="size-1/2" />
    </span>
  );
}
