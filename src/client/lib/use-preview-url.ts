import { useEffect, useState } from 'react';

/** An object URL showing a chosen file, revoked when the file changes or the screen closes. */
export function usePreviewUrl(file: Blob | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file) return;
    const objectUrl = URL.createObjectURL(file);
    // The object URL is an outside resource made and revoked by this effect; the state mirrors it.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setUrl(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [file]);
  // Once the choice is cleared its URL is revoked: show nothing rather than a dead picture.
  return file ? url : null;
}
