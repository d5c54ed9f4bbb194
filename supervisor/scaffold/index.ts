export {skeletonKinds, writeSkeleton, type SkeletonKind} from './write-skeleton.js';
