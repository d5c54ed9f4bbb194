import type {ChatRequest} from '../chat-request.js';

/** One property of a tool's JSON Schema, as far as choosing and filling arguments needs it. */
export interface ToolProperty {
	type: string | null;
	description: string;
	default: unknown;
}

/** A function tool the request offers: its name, description and the properties of its parameters' schema. */
export interface OfferedTool {
	name: string;
	description: string;
	properties: Record<string, ToolProperty>;
	required: string[];
}

/** The function tools of a request (none when it says `tool_choice: 'none'`), read from their JSON Schemas. */
export function offeredToolList(chat: ChatRequest): OfferedTool[] {
	if (chat.tool_choice === 'none') return [];
	return (chat.tools ?? []).map(({function: fn}) => {
		const schema = objectOr(fn['parameters']);
		const properties = Object.fromEntries(Object.entries(objectOr(schema['properties'])).map(([key, value]) => [key, propertyOf(objectOr(value))]));
		const required = Array.isArray(schema['required']) ? schema['required'].filter((key): key is string => typeof key === 'string') : [];
		return {name: fn.name, description: stringOr(fn['description']), properties, required};
	});
}

function propertyOf(schema: Record<string, unknown>): ToolProperty {
	// A union type (['string', 'null']) is read as its first non-null member.
	const type = Array.isArray(schema['type']) ? schema['type'].find(member => member !== 'null') : schema['type'];
	return {type: typeof type === 'string' ? type : null, description: stringOr(schema['description']), default: schema['default']};
}

function objectOr(value: unknown): Record<string, unknown> {
	return value !== null && typeof value === 'object' && !Array.isArray(value) ? value as Record<string, unknown> : {};
}

function stringOr(value: unknown): string {
	return typeof value === 'string' ? value : '';
}
