// Request methods and context method names, kept in one place for the tools that ask.
export const ELICIT = 'elicitation/create' as const;

export const Ask = { confirm: 'elicitInput' } as const;
