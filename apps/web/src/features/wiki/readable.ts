/**
 * An alert's title in the text colour: Mantine's light alerts colour it with shade 6, which on
 * their tinted background stays below 4.5:1 in the light themes. The icon and edge keep the colour.
 */
export const READABLE_TITLE = { title: { color: "var(--mantine-color-text)" } } as const;
