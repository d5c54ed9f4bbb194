import {createHash} from 'node:crypto';

/** `sha256:<hex>` of bytes or UTF-8 text. */
export function sha256(data: string | Uint8Array): string {
	return `sha256:${createHash('sha256').update(data).digest('hex')}`;
}
