import {z} from 'zod';

/** The variables the engine supplies when it renders a task template: the task's prompt and its id. */
export const templateVariables = ['prompt', 'task_id'] as const;
export const TemplateVariable = z.enum(templateVariables);
export type TemplateVariable = z.infer<typeof TemplateVariable>;

/** The first user message: `text` with `{{name}}` placeholders, each of them declared in `variables`. */
export const TaskTemplate = z.object({
	text: z.string().min(1),
	variables: z.array(TemplateVariable),
}).strict();
export type TaskTemplate = z.infer<typeof TaskTemplate>;

const placeholder = /\{\{([^{}]*)\}\}/g;
const variableName = /^[a-z][a-z0-9_]*$/;

/** The names between `{{` and `}}`, in order of appearance (repeats kept). */
export function placeholdersOf(text: string): string[] {
	return [...text.matchAll(placeholder)].map(match => match[1]!);
}

/** What is wrong with a template: malformed or undeclared placeholders, repeated declarations; empty when nothing. */
export function templateProblems(template: TaskTemplate): string[] {
	const problems: string[] = [];
	const declared = new Set(template.variables);
	if (declared.size !== template.variables.length) problems.push('a variable is declared twice');
	for (const name of new Set(placeholdersOf(template.text))) {
		if (!variableName.test(name)) problems.push(`{{${name}}} is not a variable name`);
		else if (!declared.has(name as TemplateVariable)) problems.push(`{{${name}}} is used but not declared`);
	}
	return problems;
}

/** Replaces each placeholder with its value; the values are inserted as they are, never read as templates. */
export function renderTemplate(template: TaskTemplate, values: Record<TemplateVariable, string>): string {
	return template.text.replace(placeholder, (whole, name: string) => (Object.hasOwn(values, name) ? values[name as TemplateVariable] : whole));
}
