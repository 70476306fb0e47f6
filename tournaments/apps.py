from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Before any URL module is read: every number in a URL goes through the one id
        # parser (tournaments/common/ids.py).
        from django.urls import register_converter

        from tournaments.common.ids import IdConverter

        register_converter(IdConverter, "id")
