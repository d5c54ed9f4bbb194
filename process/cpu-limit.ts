import {z} from 'zod';

/** How a tree's CPU was bounded: its cgroup's `cpu.max` (the whole tree together, in CPUs' worth of time per period). */
export const CpuLimit = z.object({
	cpus: z.number().positive(),
	by: z.literal('cgroup'),
});
export type CpuLimit = z.infer<typeof CpuLimit>;

/** The cgroup's period (µs) over which `cpus` CPUs' worth of time is allowed. */
const periodMicros = 100_000;

/** `cpu.max` for `cpus` CPUs: quota and period in microseconds (the kernel takes no quota under 1 ms). */
export function cpuMaxValue(cpus: number): string {
	return `${Math.max(1000, Math.round(cpus * periodMicros))} ${periodMicros}`;
}

/** The CPU limit of a task's tool commands, published to the worker threads through the environment as the memory limit is. */
export const cpuLimitVariable = 'HLAB_CPU_LIMIT';

export function publishCpuLimit(cpus: number | null): void {
	if (cpus === null) delete process.env[cpuLimitVariable];
	else process.env[cpuLimitVariable] = String(cpus);
}

/** The published limit, or null when the attempt published none. */
export function publishedCpuLimit(): number | null {
	const value = Number(process.env[cpuLimitVariable] ?? '');
	return Number.isFinite(value) && value > 0 ? value : null;
}
