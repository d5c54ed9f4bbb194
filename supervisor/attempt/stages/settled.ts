/** A promise's outcome as a value: a service started beside another stage is awaited, and closed, whichever way it went. */
export type Settled<T> = {value: T} | {error: Error};

export function settle<T>(promise: Promise<T>): Promise<Settled<T>> {
	return promise.then(value => ({value}), (error: Error) => ({error}));
}
