/**
 * Column options many tables share.
 */

/** Magento's unsigned integer columns. */
export const unsigned = { unsigned: true } as const;
