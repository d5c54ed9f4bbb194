import {writeJson} from '../../../files/write-json.js';
import {join} from 'node:path';
import {loadCartridge, type LoadedCartridge} from '../../../cartridges/index.js';
import {readResponseScript, type ResponseScript} from '../../../scripted/index.js';
import {cartridgeIdentity} from '../../../cartridges/index.js';
import {admit, type AdmissionResult} from '../../plan/admission.js';
import type {TaskFailure} from '../task-core/failed-result.js';
import type {AttemptContext} from './attempt-context.js';

export interface Admission {
	result: AdmissionResult;
	/** Set when admission refused the plan: the reason every task of the denominator fails with. */
	failure: TaskFailure | null;
	/** A cartridge plan's cartridge as loaded (the plan's, or the candidate cartridge), once admitted. */
	cartridge: LoadedCartridge | null;
	/** The response script the scripted provider plays, when the plan froze one. */
	responses: ResponseScript | null;
}

/** Recomputes every identity the plan records; a refused plan still gets a report, with the whole denominator failed. */
export async function admitAttempt(attempt: AttemptContext): Promise<Admission> {
	const source = await loadSource(attempt);
	const result = await admit(attempt.plan, {configPath: attempt.options.configPath, cwd: attempt.options.cwd, ...(source.cartridge === null ? {} : {cartridge: source.cartridge})});
	result.differences.push(...source.differences);
	result.admitted &&= source.differences.length === 0;
	attempt.log.info({admitted: result.admitted, differences: result.differences}, 'admission');
	const admitted = result.admitted;
	return {
		result,
		failure: admitted ? null : refusal(result.differences.length),
		cartridge: admitted ? source.cartridge?.loaded ?? null : null,
		responses: admitted ? source.responses : null,
	};
}

function refusal(differences: number): TaskFailure {
	return {reason: 'admission', message: `admission rejected (${differences} difference${differences > 1 ? 's' : ''}, listed in the report's admission)`};
}

interface TaskSource {
	cartridge: {loaded: LoadedCartridge | null; problems: string[]; candidate: boolean} | null;
	responses: ResponseScript | null;
	/** What the options ask that the plan cannot give. */
	differences: string[];
}

/** A cartridge plan's cartridge (the candidate's when given) and its response script, loaded once for admission and the run. */
async function loadSource(attempt: AttemptContext): Promise<TaskSource> {
	const {plan, options} = attempt;
	const candidateDir = options.candidateCartridge ?? null;
	const responses = await frozenScript(attempt);
	if (plan.cartridge === undefined) {
		return {cartridge: null, responses, differences: candidateDir === null ? [] : [`cartridge: --candidate-cartridge needs a cartridge plan (frozen with --cartridge); this plan has none`]};
	}
	const loaded = await loadCartridge(candidateDir ?? plan.cartridge.dir);
	const cartridge = loaded.ok
		? {loaded: loaded.cartridge, problems: [], candidate: candidateDir !== null}
		: {loaded: null, problems: loaded.problems.map(problem => `${candidateDir ?? plan.cartridge!.dir}: ${problem}`), candidate: candidateDir !== null};
	// Which cartridge ran, with its Harness fingerprint: the side's harness, kept beside attempt.json.
	if (loaded.ok) await writeJson(join(attempt.dir, 'cartridge.json'), {schema: 'harness-lab/attempt-cartridge@1', candidate: candidateDir !== null, ...cartridgeIdentity(loaded.cartridge)}, {durable: true, exclusive: true});
	const differences = options.candidateHost ? ['cartridge: a cartridge plan runs its cases with the cartridge\'s harness; --candidate-host cannot run them'] : [];
	return {cartridge, responses, differences};
}

/** The plan's response script as it is now; admission compares its digest with the frozen one. */
async function frozenScript(attempt: AttemptContext): Promise<ResponseScript | null> {
	const {provider} = attempt.plan;
	if (provider.kind !== 'scripted' || provider.responses === undefined) return null;
	const read = await readResponseScript(provider.responses.path);
	return read.ok && read.digest === provider.responses.digest ? read.script : null;
}
