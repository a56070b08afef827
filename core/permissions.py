"""Who may do what beyond their own seat: one answer per question, shared by every app."""

MODERATE = "moderation.can_moderate"


def can_moderate(user) -> bool:
    return user.is_active and user.is_staff and user.has_perm(MODERATE)
