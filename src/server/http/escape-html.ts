/** Text made safe to put in HTML, in an element or a quoted attribute. */
export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
