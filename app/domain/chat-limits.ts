/**
 * The longest chat message, in characters: the guest's composer, the API's body check, the staff inbox's reply
 * and the agent's answer all stop here (so chat and the agent share it from below both).
 */
export const MAX_CHAT_MESSAGE_LENGTH = 4000;
