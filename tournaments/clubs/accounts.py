"""A director account's console language (issue 24): one row per account, written here."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from tournaments.core.models.staff import AccountLanguage


def remember_language(user: AbstractBaseUser | AnonymousUser, code: str) -> None:
    """Keep ``code`` as the account's language (a staff account only; phones and tablets
    have no account and keep their choice in their cookie)."""
    if not user.is_authenticated or not getattr(user, "is_staff", False):
        return
    AccountLanguage.objects.update_or_create(user_id=user.pk, defaults={"language": code})


def account_language(user: AbstractBaseUser | AnonymousUser) -> str | None:
    """The language the account chose last, if any (read once, at sign-in)."""
    if not user.is_authenticated:
        return None
    return (
        AccountLanguage.objects.filter(user_id=user.pk).values_list("language", flat=True).first()
    )
