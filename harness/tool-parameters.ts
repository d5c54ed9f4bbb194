import {z} from 'zod';

/** A tool's argument schema as the model is offered it: a JSON Schema object, plain data. */
export const ToolParameters = z.object({type: z.literal('object')}).catchall(z.json());
export type ToolParameters = z.infer<typeof ToolParameters>;

/**
 * The JSON Schema of the zod schema that validates a tool's arguments. It describes what the model may send
 * (`io: 'input'`); the `$schema` tag is dropped because chat-completions tools carry plain parameter objects.
 */
export function toolParameters(args: z.ZodType): ToolParameters {
	const {$schema: _tag, ...schema} = z.toJSONSchema(args, {io: 'input'});
	return ToolParameters.parse(schema);
}
