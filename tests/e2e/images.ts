import sharp from 'sharp';

/** A real photo-like JPEG made on the fly (no binary fixtures in the repo). */
export async function photo(label: string, width = 900, height = 1200, color = '#3a86ff') {
  const svg = `<svg width="${width}" height="${height}" xmlns="http://www.w3.org/2000/svg">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${color}"/><stop offset="1" stop-color="#111"/></linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/><text x="40" y="${height - 60}" font-size="64" fill="#fff">${label}</text></svg>`;
  const buffer = await sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
  return { name: `${label}.jpg`, mimeType: 'image/jpeg', buffer };
}
