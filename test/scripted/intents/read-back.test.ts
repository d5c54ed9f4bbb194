import t from 'tap';
import {parseCommandObservation} from '../../../tasks/reference/observations.js';
import {commandObservation, fileText, shellFileText, startObservation} from '../../../scripted/intents/read-back.js';

const file = 'line one\n  indented: two\n\nfour\n';

t.test('a read tool\'s result is the file\'s text, whatever frame or numbering the agent puts around it', async t => {
	const opencode = ['<path>/w/a.txt</path>', '<type>file</type>', '<content>', '1: line one', '2:   indented: two', '3: ', '4: four', '', '(End of file - total 4 lines)', '</content>', '<system-reminder>x</system-reminder>'].join('\n');
	t.equal(fileText(opencode), file, 'opencode: <content>, "N: " prefixes and the end-of-file line');
	t.equal(fileText('     1\tline one\n     2\t  indented: two\n     3\t\n     4\tfour\n'), file, 'cat -n style');
	t.equal(fileText('00001| line one\n00002|   indented: two\n00003| \n00004| four'), file, 'older opencode style');
	t.equal(fileText(`Showing lines 1-4 of 9 total lines.\n\n---\n\n${file}`), file, 'Qwen Code\'s truncation header');
	t.equal(fileText(`${file}\n[Showing lines 1-4 of 9. Use offset=5 to continue.]`), file, 'pi\'s truncation note');
	t.equal(fileText(JSON.stringify({output: file, metadata: {}})), file, 'a JSON wrapper');
	t.equal(fileText(file), file, 'a raw read is left as it is');
	t.equal(fileText('3: three\n4: four\n'), '3: three\n4: four\n', 'lines numbered from 3 are the file\'s own text (the references read whole files)...');
	t.equal(fileText('1: a\n3: c\n'), '1: a\n3: c\n', '...but numbers that are not consecutive are the file\'s own text');
	t.equal(fileText('2024: a year\n'), '2024: a year\n', 'a line that starts with a number is content');
	t.match(fileText('Error: File not found: /w/x'), /^error: File not found/, 'an agent\'s error reads as a tool error');
	t.equal(fileText('Errors are logged here.\n'), 'Errors are logged here.\n', 'a file that starts with the word is a file');
});

t.test('a shell tool\'s result reads as run_command\'s observation: the line\'s own exit marker, the output without the agent\'s labels', async t => {
	const observed = (text: string) => parseCommandObservation(commandObservation(text));
	const qwen = ['Command: cat x\necho "hlab-exit: $?"', 'Directory: (root)', 'Output: {"a":1}', 'hlab-exit: 0', 'Error: (none)', 'Exit Code: 0', 'Signal: (none)', 'Process Group PGID: 42'].join('\n');
	t.same(observed(qwen), {exitCode: 0, timedOut: false, stdout: '{"a":1}\n', stderr: ''}, 'Qwen Code: the command echoed in "Command:" is no marker; the output after "Output: "');
	t.same(observed('Chunk ID: 1\nWall time: 0.1 seconds\nProcess exited with code 0\nOriginal token count: 3\nOutput:\n1 failing\nhlab-exit: 1\n')!.exitCode, 1, 'Codex exec_command: the marker, not the wrapper\'s exit status (which is the echo\'s)');
	t.same(observed('Chunk ID: 1\nWall time: 0.1 seconds\nProcess exited with code 0\nOriginal token count: 3\nOutput:\npending\nhlab-exit: 0\n')!.stdout, 'pending\n');
	t.same(observed(JSON.stringify({output: 'pending\nhlab-exit: 0\n', metadata: {exit_code: 0}}))!.stdout, 'pending\n', 'Codex shell: the JSON wrapper');
	t.same(observed('tests failed\nhlab-exit: 1\n')!.exitCode, 1, 'opencode: only the output, so only the marker tells');
	t.same(observed('no newlinehlab-exit: 0\n')!.stdout, 'no newline', 'output without a final newline: the marker follows on the same line');
	t.same(observed('boom\n\nCommand exited with code 2')!.exitCode, 2, 'no marker (the line did not finish): the agent\'s printed status');
	t.same(observed('Command timed out after 120 seconds')!.exitCode, null, 'nothing printed: unknown, never success');
	t.equal(shellFileText('cat: x: No such file or directory\nhlab-exit: 1\n').startsWith('error: '), true, 'a failed cat is a tool error');
	t.equal(shellFileText(`${file}hlab-exit: 0\n`), file, 'a cat is the file byte for byte');
	t.equal(startObservation('hlab-started: 4242\n'), 'started background job (pid 4242)');
	t.match(startObservation('bash: nohup: command not found'), /^error: /);
});

t.test('a background start reads back from our marker or from the agent\'s own report of a job it runs itself', async t => {
	t.equal(startObservation('hlab-started: 42\n'), 'started background job (pid 42)');
	t.equal(startObservation('Background shell started.\nid: bg_f64577d0\npid: 28691\noutput file: /tmp/x.output'), 'started background job (pid 28691)', 'Qwen Code 0.24.4');
	t.match(startObservation('Command failed: no such shell'), /^error: /);
	t.match(startObservation('The background shell that started pid: 7 is not ours'), /^error: /, 'only a report that starts as Qwen Code\'s does');
});
