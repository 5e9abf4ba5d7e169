import { useState } from 'react';
import { usePreviewUrl } from './use-preview-url';

/** The image a form's picker holds: the file, its preview, and how to change or drop it. */
export function useImageChoice() {
  const [file, setFile] = useState<File | null>(null);
  const preview = usePreviewUrl(file);
  return { file, preview, choose: setFile, clear: () => setFile(null) };
}
