// Types of globs.cjs.
export declare const ignore: typeof import('ignore').default;
export declare const picomatch: typeof import('picomatch');
