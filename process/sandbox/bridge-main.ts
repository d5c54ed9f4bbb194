import {spawn} from 'node:child_process';
import {connect, createServer} from 'node:net';

/*
 * Runs inside a sandbox that has no network but its own loopback: listens on 127.0.0.1:PORT for each
 * `--bridge PORT=SOCKET`, pipes every connection to the Unix socket the supervisor bound in, then runs the command
 * after `--` with this process's stdio and ends with its status. Only node: modules, so the file stands alone.
 */

type Bridge = {port: number; socket: string};

function parse(argv: string[]): {bridges: Bridge[]; command: string[]} {
	const split = argv.indexOf('--');
	if (split === -1 || split === argv.length - 1) throw new Error('usage: bridge-main --bridge PORT=SOCKET ... -- COMMAND [ARGS...]');
	const bridges: Bridge[] = [];
	for (let index = 0; index < split; index += 2) {
		const [flag, value] = [argv[index], argv[index + 1] ?? ''];
		const match = /^(\d+)=(.+)$/.exec(value);
		if (flag !== '--bridge' || match === null) throw new Error(`bridge-main: expected --bridge PORT=SOCKET, got ${flag} ${value}`);
		bridges.push({port: Number(match[1]), socket: match[2]!});
	}
	return {bridges, command: argv.slice(split + 1)};
}

function listenOn({port, socket}: Bridge): Promise<void> {
	const server = createServer(inside => {
		const outside = connect(socket);
		const end = () => {
			inside.destroy();
			outside.destroy();
		};
		inside.on('error', end);
		outside.on('error', end);
		inside.pipe(outside).pipe(inside);
	});
	// The listener must not keep the bridge alive once the command has ended.
	server.unref();
	return new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', () => resolve());
	});
}

async function main(): Promise<void> {
	const {bridges, command} = parse(process.argv.slice(2));
	await Promise.all(bridges.map(listenOn));
	const child = spawn(command[0]!, command.slice(1), {stdio: 'inherit'});
	child.on('error', error => {
		process.stderr.write(`bridge-main: cannot start ${command[0]}: ${error.message}\n`);
		process.exit(127);
	});
	child.on('exit', (code, signal) => {
		if (signal !== null) {
			// The same death as the command's, so the supervisor's record names its signal; a handler preloaded through
			// NODE_OPTIONS must not turn it into an exit.
			process.removeAllListeners(signal);
			process.kill(process.pid, signal);
			return;
		}
		process.exit(code ?? 1);
	});
}

main().catch(error => {
	process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
	process.exit(125);
});
