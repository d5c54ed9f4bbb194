import {z} from 'zod';

/**
 * Why an attempt is `trusted-code`: every reason there is, in one place. Each names code or input the supervisor had
 * to trust because nothing contained it; the sentences are what a person reads (summary, decision, page).
 */
export const IntegrityReason = z.enum([
	'no-sandbox',
	'in-process-candidate',
	'cartridge-tools',
	'queue-without-secret',
	'sandbox-unavailable',
	'attempt-record-missing',
	'recorded-before-integrity-labels',
]);
export type IntegrityReason = z.infer<typeof IntegrityReason>;

export const integrityReasonText: Record<IntegrityReason, string> = {
	'no-sandbox': 'no --sandbox: tool commands, host candidates and graded workspace code ran unconfined',
	'in-process-candidate': 'in-process candidate code runs in the supervisor\'s threads',
	'cartridge-tools': 'cartridge tools and resources run in the supervisor\'s threads',
	'queue-without-secret': 'a queue without a secret: anyone who reaches its Redis can answer for a node',
	'sandbox-unavailable': 'no bubblewrap or no user namespaces here: the sandbox could not be checked',
	'attempt-record-missing': 'no attempt.json: what ran is unknown',
	'recorded-before-integrity-labels': 'recorded before integrity labels',
};

/**
 * `contained`: nothing untrusted ran where it could reach the supervisor, the hidden data or the evidence (see
 * docs/trust.md). `trusted-code`: something did, named by the reasons; its evidence is only as good as that code.
 */
export const Integrity = z.object({
	label: z.enum(['contained', 'trusted-code']),
	reasons: z.array(IntegrityReason),
}).refine(value => (value.label === 'contained') === (value.reasons.length === 0), 'contained has no reasons, trusted-code at least one');
export type Integrity = z.infer<typeof Integrity>;

/** What a record written before the labels reads as: never contained, since nobody decided. */
export const legacyIntegrity: Integrity = {label: 'trusted-code', reasons: ['recorded-before-integrity-labels']};

/** One line: `contained`, or `trusted-code (reason; reason)`. */
export function describeIntegrity(integrity: Integrity): string {
	if (integrity.label === 'contained') return 'contained';
	return `trusted-code (${integrity.reasons.map(reason => integrityReasonText[reason]).join('; ')})`;
}
