import {z} from 'zod';
import {checkSandbox} from '../../process/sandbox/check-sandbox.js';
import {InputError} from '../input-error.js';

/** Tool commands and host candidates of both sides run under bubblewrap (this version): frozen, so no side runs otherwise. */
export const PlanSandbox = z.object({kind: z.literal('bubblewrap'), version: z.string()});
export type PlanSandbox = z.infer<typeof PlanSandbox>;

export class SandboxUnavailableError extends InputError {
	readonly reason = 'sandbox_unavailable';
}

/** `--sandbox` at freeze: the sandbox this machine gives, or a one-line refusal; never a plan that would run unsandboxed. */
export function freezeSandbox(wanted: boolean): PlanSandbox | undefined {
	if (!wanted) return undefined;
	const check = checkSandbox();
	if (!check.ok) throw new SandboxUnavailableError(`--sandbox: ${check.reason}`);
	return {kind: 'bubblewrap', version: check.version};
}

/** At admission: a sandboxed plan needs the same bubblewrap, usable here; each difference is one line. */
export function admitSandbox(frozen: PlanSandbox | undefined): string[] {
	if (frozen === undefined) return [];
	const check = checkSandbox();
	if (!check.ok) return [`sandbox: the plan runs under bubblewrap ${frozen.version}, but ${check.reason}`];
	if (check.version !== frozen.version) return [`sandbox: bubblewrap ${frozen.version} was frozen, this machine has ${check.version}`];
	return [];
}
