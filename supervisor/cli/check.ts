import type {Command} from "commander";
export function registerCheck(_program: Command): void {}
