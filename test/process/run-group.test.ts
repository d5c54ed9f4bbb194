import t from 'tap';
import {runInGroup} from '../../process/index.js';
import {checkNoLeaks} from '../leak-check.js';
import {groupCases} from './group-cases.js';

checkNoLeaks(t);

groupCases(t, runInGroup);
