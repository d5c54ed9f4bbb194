/** A service of the attempt (the scripted provider) that ended while the attempt still needed it. */
export interface ServiceDeath {
	/** The service, as the evidence names it (its folder under services/). */
	service: string;
	/** When the supervisor saw it end. */
	atMs: number;
	/** How it ended (a signal, an exit status), as its process record says. */
	how: string;
}

/**
 * The deaths of the attempt's services, seen the moment the supervisor's child ends: listeners (the attempt's
 * limiter, which every task's requests go through) hear each at once, and the report names every one.
 */
export class ServiceWatch {
	private readonly seen: ServiceDeath[] = [];
	private readonly listeners: Array<(death: ServiceDeath) => void> = [];

	died(death: ServiceDeath): void {
		this.seen.push(death);
		for (const listener of this.listeners) listener(death);
	}

	onDeath(listener: (death: ServiceDeath) => void): void {
		this.listeners.push(listener);
		for (const death of this.seen) listener(death);
	}

	/** One sentence per death, for the report's problems. */
	problems(): string[] {
		return this.seen.map(death => `the ${death.service} service died at ${new Date(death.atMs).toISOString()} (${death.how}) while the attempt still needed it; the tasks that needed it failed \`provider\` as infrastructure failures`);
	}
}
