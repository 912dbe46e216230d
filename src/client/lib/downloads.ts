import { useState } from 'react';
import { ApiError, apiFile, describeError, saveFile, type Query } from './api';
import { toast } from './notify';

/** A file the server makes to take away (an export, a PDF), named as the server names it or else `fallbackName`. */
export interface ServerFile {
  path: string;
  query?: Query;
  fallbackName: string;
  /** What the toast says when there is no connection: the file comes only from the server. */
  offline: string;
}

/** Fetches `file` into the browser's downloads; a failure is said in a toast. */
export async function downloadFile({ path, query, fallbackName, offline }: ServerFile): Promise<void> {
  try {
    const answer = await apiFile(path, { query });
    saveFile(answer.blob, answer.filename ?? fallbackName);
  } catch (error) {
    toast.error(error instanceof ApiError && error.status === 0 ? offline : describeError(error));
  }
}

/** `downloadFile` behind a button: whether a download is under way (the button's busy state), and the download. */
export function useDownload(): [busy: boolean, download: (file: ServerFile) => Promise<void>] {
  const [busy, setBusy] = useState(false);
  const download = async (file: ServerFile) => {
    setBusy(true);
    try {
      await downloadFile(file);
    } finally {
      setBusy(false);
    }
  };
  return [busy, download];
}
